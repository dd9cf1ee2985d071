import Foundation
import Synchronization
import XCTest
@testable import Imaging

/// Rows of tiles of a JPEG without restart markers, cut out with its scan index: the same tiles
/// as a decode of the whole file makes; the index made once per version of the file; a file the
/// index does not take decoded whole as before.
final class ScanIndexRowTests: XCTestCase {
    private var fixtures: Fixtures!
    private let settings = RenderSettings()

    override func setUpWithError() throws { fixtures = try Fixtures() }
    override func tearDown() { fixtures = nil }

    /// A detailed picture (noise over a gradient, so that its entropy code is no run of zeros)
    /// saved with `options`: made once a test run, each test's a copy of its own.
    private func photo(_ name: String, width: Int, height: Int, _ options: [String]) throws -> String {
        try fixtures.jpeg(name, from: fixtures.noisyGradient(width: width, height: height, sigma: 24), options)
    }

    private func row(_ z: Int, _ y: Int, _ source: String) throws -> [TileCoordinate: [UInt8]] {
        let made = Mutex<[TileCoordinate: [UInt8]]>([:])
        try PhotoRenderer.render(.row(z: z, y: y), source: source, settings: settings) { tile, bytes in
            made.withLock { $0[tile!] = bytes }
        }
        return made.withLock { $0 }
    }

    func testARowCutWithTheIndexIsTheWholeDecodesRow() throws {
        // 6000×4000: native and the level at 1/2 are rendered a row at a time.
        let plain = try photo("plain.jpg", width: 6000, height: 4000, ["--Q", "85"])
        let file = try PhotoSource.file(plain).open()
        defer { file.close() }
        XCTAssertFalse(JPEGRows.restartsAtRows(descriptor: file.rawValue), "no restarts to cut at")
        XCTAssertTrue(try PhotoRenderer.rendersRowAlone(source: .file(plain), tile: TileCoordinate(z: 5, x: 3, y: 7), settings: settings),
                      "its rows are cut with its index")
        // The first native row, one in the middle, the last and shorter one, a row at 1/2.
        for (z, y) in [(5, 0), (5, 7), (5, 15), (4, 3)] {
            let before = JPEGRows.bandsDecoded.load(ordering: .relaxed)
            let cut = try row(z, y, plain)
            XCTAssertEqual(JPEGRows.bandsDecoded.load(ordering: .relaxed), before + 1, "level \(z) row \(y): cut from a band")
            let whole = try wholeDecodeRow(z: z, y: y, of: plain, settings: settings)
            XCTAssertEqual(Set(cut.keys), Set(whole.keys))
            XCTAssertEqual(cut.filter { whole[$0.key] != $0.value }.keys.map(\.description).sorted(), [],
                           "level \(z) row \(y): the whole decode's tiles, byte for byte")
        }
    }

    func testTheIndexIsMadeOncePerVersionOfTheFile() throws {
        let path = try photo("photo.jpg", width: 2000, height: 1400, ["--Q", "85"])
        let indexes = JPEGScanIndexes(capacity: 2)
        let first = try PhotoSource.file(path).open()
        defer { first.close() }
        // Askers at the same time share one pass.
        let got = Mutex<[ObjectIdentifier?]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            guard let file = try? PhotoSource.file(path).open() else { return }
            defer { file.close() }
            let index = indexes.index(descriptor: file.rawValue)
            got.withLock { $0.append(index.map(ObjectIdentifier.init)) }
        }
        let index = try XCTUnwrap(indexes.index(descriptor: first.rawValue))
        XCTAssertEqual(got.withLock { $0 }, Array(repeating: ObjectIdentifier(index), count: 4), "one index for every asker")
        XCTAssertTrue(indexes.index(descriptor: first.rawValue) === index, "kept")

        // The same path, rewritten in place with other bytes: a file of its own.
        let other = try photo("other.jpg", width: 2000, height: 1400, ["--Q", "60"])
        try Data(contentsOf: URL(fileURLWithPath: other)).write(to: URL(fileURLWithPath: path))
        let rewritten = try PhotoSource.file(path).open()
        defer { rewritten.close() }
        let fresh = try XCTUnwrap(indexes.index(descriptor: rewritten.rawValue))
        XCTAssertFalse(fresh === index, "a rewritten file gets an index of its own")
        let band = try XCTUnwrap(JPEGRows.band(descriptor: rewritten.rawValue, scale: 1, holding: 512..<768, index: fresh))
        XCTAssertLessThanOrEqual(band.row, 512)

        // A damaged file fails, and that is kept (the least recently used goes at the third file).
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: other)))
        let truncated = fixtures.path("truncated.jpg")
        try Data(bytes[..<(bytes.count / 2)]).write(to: URL(fileURLWithPath: truncated))
        let damaged = try PhotoSource.file(truncated).open()
        defer { damaged.close() }
        XCTAssertNil(indexes.index(descriptor: damaged.rawValue))
        XCTAssertNil(indexes.index(descriptor: damaged.rawValue))
        XCTAssertEqual(indexes.count, 2, "two files kept: the damaged one and the rewritten one")
        XCTAssertTrue(indexes.index(descriptor: rewritten.rawValue) === fresh)
    }

    func testAStoppedPassIsNotKept() throws {
        let path = try photo("photo.jpg", width: 2000, height: 1400, ["--Q", "85"])
        let indexes = JPEGScanIndexes(capacity: 2)
        let file = try PhotoSource.file(path).open()
        defer { file.close() }
        let stop = RenderStop()
        stop.cancel()
        XCTAssertNil(indexes.index(descriptor: file.rawValue, stop: stop))
        XCTAssertEqual(indexes.count, 0)
        XCTAssertNotNil(indexes.index(descriptor: file.rawValue), "the next asker makes it")
    }

    func testAProgressiveJPEGIsDecodedWhole() throws {
        // 4000×2500: native is rendered a row at a time.
        let progressive = try photo("progressive.jpg", width: 4000, height: 2500, ["--Q", "85", "--interlace"])
        let tile = TileCoordinate(z: 4, x: 5, y: 4)
        XCTAssertEqual(try PhotoRenderer.renderUnit(source: progressive, tile: tile, settings: settings), .row(z: 4, y: 4))
        XCTAssertFalse(try PhotoRenderer.rendersRowAlone(source: .file(progressive), tile: tile, settings: settings))
        let before = JPEGRows.bandsDecoded.load(ordering: .relaxed)
        let rendered = try row(4, 4, progressive)
        XCTAssertEqual(JPEGRows.bandsDecoded.load(ordering: .relaxed), before, "no band cut")
        let indexes = JPEGScanIndexes(capacity: 2)
        let file = try PhotoSource.file(progressive).open()
        defer { file.close() }
        XCTAssertNil(indexes.index(descriptor: file.rawValue))
        XCTAssertEqual(indexes.count, 0, "not kept among the files indexed")
        let whole = try wholeDecodeRow(z: 4, y: 4, of: progressive, settings: settings)
        XCTAssertEqual(Set(rendered.keys), Set(whole.keys))
        XCTAssertTrue(rendered == whole, "the whole decode's tiles")
    }
}
