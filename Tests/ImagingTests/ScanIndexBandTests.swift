import Foundation
import TestSupport
import XCTest
@testable import Imaging

/// Bands of a baseline JPEG without restart markers, cut out with the index of its entropy code:
/// the same pixels as decoding every row above them; and a damaged file fails alone.
final class ScanIndexBandTests: XCTestCase {
    private var fixtures: Fixtures!

    override func setUpWithError() throws { fixtures = try Fixtures() }
    override func tearDown() { fixtures = nil }

    /// A 2000×1400 picture with noise in each band of its own (so chroma differs from block to
    /// block), saved without restarts as `options` say. The picture is drawn once a test run
    /// (`SharedFixture`), and so is each file saved from it; each test has copies of its own.
    private func photo(_ name: String, _ options: [String], grey: Bool = false) throws -> String {
        let detailed = try SharedFixture.path("gradient-2000x1400-noise-r30-g12-b45.v") { made in
            let drawn = try fixtures.gradient("drawn.jpg", width: 2000, height: 1400)
            for (band, sigma) in [("r", 30), ("g", 12), ("b", 45)] {
                try fixtures.vips("gaussnoise", fixtures.path("\(band).v"), "2000", "1400", "--sigma", "\(sigma)")
            }
            try fixtures.vips("bandjoin", "\(fixtures.path("r.v")) \(fixtures.path("g.v")) \(fixtures.path("b.v"))",
                              fixtures.path("noise.v"))
            try fixtures.vips("add", drawn, fixtures.path("noise.v"), fixtures.path("sum.v"))
            try fixtures.vips("cast", fixtures.path("sum.v"), made, "uchar")
        }
        var source = detailed
        if grey {
            source = try SharedFixture.path("gradient-2000x1400-noise-r30-g12-b45-b-w.v") { made in
                try fixtures.vips("colourspace", detailed, made, "b-w")
            }
        }
        return try fixtures.jpeg(name, from: source, options)
    }

    /// Every row of the file at 1/`scale`, rows one after another (from a descriptor of its own:
    /// the decoder reads from the descriptor's offset).
    private func wholeDecode(_ path: String, scale: Int) throws -> (pixels: [UInt8], stride: Int) {
        let file = try PhotoSource.file(path).open()
        defer { file.close() }
        let rows = try JPEGRows(descriptor: file.rawValue, scale: scale)
        let stride = rows.width * 3
        var pixels = [UInt8](repeating: 0, count: stride * rows.height)
        try pixels.withUnsafeMutableBufferPointer { try rows.read(into: $0.baseAddress!, stride: stride, rows: rows.height) }
        return (pixels, stride)
    }

    /// Rows `wanted` (unscaled) of the file at 1/`scale`, from a band cut with `index`.
    private func bandRows(_ descriptor: Int32, index: JPEGScanIndex, scale: Int, wanted: Range<Int>) throws -> [UInt8] {
        let band = try XCTUnwrap(JPEGRows.band(descriptor: descriptor, scale: scale, holding: wanted, index: index))
        let rowBytes = band.width * 3, first = band.row, decoded = band.height - band.row
        var pixels = [UInt8](repeating: 0, count: rowBytes * decoded)
        try pixels.withUnsafeMutableBufferPointer { try band.read(into: $0.baseAddress!, stride: rowBytes, rows: decoded) }
        let from = wanted.lowerBound / scale, to = (wanted.upperBound + scale - 1) / scale
        XCTAssertLessThanOrEqual(first, from, "the band starts above the rows wanted")
        XCTAssertGreaterThanOrEqual(first + decoded, to, "and ends below them")
        return Array(pixels[(from - first) * rowBytes ..< (to - first) * rowBytes])
    }

    func testABandCutWithTheIndexIsTheWholeDecodesRows() throws {
        // Chroma halved both ways (MCUs of 16×16), chroma whole (8×8), tables made for the file
        // (which lack DC categories the band's first blocks need), greyscale.
        let photos = [
            try photo("q85.jpg", ["--Q", "85"]),
            try photo("q95.jpg", ["--Q", "95"]),
            try photo("optimized.jpg", ["--Q", "80", "--optimize-coding"]),
            try photo("grey.jpg", ["--Q", "85"], grey: true),
        ]
        for path in photos {
            let file = try PhotoSource.file(path).open()
            defer { file.close() }
            XCTAssertTrue(JPEGScanIndex.indexes(descriptor: file.rawValue), path)
            XCTAssertFalse(JPEGRows.restartsAtRows(descriptor: file.rawValue), "\(path) has no restarts to cut at")
            let index = try JPEGScanIndex(descriptor: file.rawValue)
            for scale in [1, 4] {
                let whole = try wholeDecode(path, scale: scale)
                // The first row of tiles, two in the middle (one not on an MCU row), a few rows,
                // and the last, shorter one.
                for wanted in [0..<256, 768..<1024, 333..<589, 1001..<1010, 1280..<1400] {
                    let from = wanted.lowerBound / scale, to = (wanted.upperBound + scale - 1) / scale
                    let band = try bandRows(file.rawValue, index: index, scale: scale, wanted: wanted)
                    XCTAssertTrue(band == Array(whole.pixels[from * whole.stride ..< to * whole.stride]),
                                  "\(path) rows \(wanted) at 1/\(scale): the whole decode's, byte for byte")
                }
            }
        }
    }

    func testAStoppedIndexFailsWithTheStopsReason() throws {
        let path = try photo("q85.jpg", ["--Q", "85"])
        let file = try PhotoSource.file(path).open()
        defer { file.close() }
        let stop = RenderStop()
        stop.cancel()
        XCTAssertThrowsError(try JPEGScanIndex(descriptor: file.rawValue, stop: stop)) { error in
            guard case ImagingError.cancelled = error else { return XCTFail("\(error)") }
        }
        XCTAssertEqual(try JPEGScanIndex(descriptor: file.rawValue, stop: RenderStop()).rows, 1400 / 16 + 1,
                       "an MCU row of 16 a start, the last one shorter")
    }

    func testADamagedFileFailsAloneAndOthersAreNotIndexed() throws {
        let good = try photo("good.jpg", ["--Q", "85"])
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: good)))
        let indexed = try PhotoSource.file(good).open()
        defer { indexed.close() }
        let index = try JPEGScanIndex(descriptor: indexed.rawValue)

        // Cut short in the middle of its coded data; and sixteen ones and more in a row, which
        // no code of the standard tables starts with.
        let truncated = fixtures.path("truncated.jpg")
        try Data(bytes[..<(bytes.count / 2)]).write(to: URL(fileURLWithPath: truncated))
        var garbled = bytes
        for at in stride(from: bytes.count / 2, to: bytes.count / 2 + 64, by: 2) { garbled[at] = 0xFF; garbled[at + 1] = 0x00 }
        let bad = fixtures.path("garbled.jpg")
        try Data(garbled).write(to: URL(fileURLWithPath: bad))
        for path in [truncated, bad] {
            let file = try PhotoSource.file(path).open()
            defer { file.close() }
            XCTAssertTrue(JPEGScanIndex.indexes(descriptor: file.rawValue), "its headers are whole")
            XCTAssertThrowsError(try JPEGScanIndex(descriptor: file.rawValue), path) { error in
                guard case ImagingError.corrupt(let reason) = error else { return XCTFail("\(error)") }
                XCTAssertTrue(reason.contains("damaged or incomplete"), reason)
            }
        }
        // A file changed since it was indexed: a band past its new end is not cut.
        let shortened = try PhotoSource.file(truncated).open()
        defer { shortened.close() }
        XCTAssertNil(JPEGRows.band(descriptor: shortened.rawValue, scale: 1, holding: 1280..<1400, index: index))
        // The good file's bands are cut as before.
        let whole = try wholeDecode(good, scale: 1)
        XCTAssertTrue(try bandRows(indexed.rawValue, index: index, scale: 1, wanted: 768..<1024)
                      == Array(whole.pixels[768 * whole.stride ..< 1024 * whole.stride]))

        // Progressive and restarted files are not indexed (restarts are cut at themselves).
        for (name, option) in [("progressive.jpg", "--interlace"), ("restarts.jpg", "--restart-interval")] {
            let path = try photo(name, option == "--interlace" ? [option] : [option, "125"])
            let file = try PhotoSource.file(path).open()
            defer { file.close() }
            XCTAssertFalse(JPEGScanIndex.indexes(descriptor: file.rawValue), name)
            XCTAssertThrowsError(try JPEGScanIndex(descriptor: file.rawValue), name)
        }
    }
}
