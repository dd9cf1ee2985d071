import Foundation
import Synchronization
import XCTest
@testable import Imaging

/// Rows of tiles of a JPEG with restart markers, decoded from a band cut out at its restarts:
/// the same pixels as decoding every row above them.
final class RestartBandTests: XCTestCase {
    private var fixtures: Fixtures!
    private let settings = RenderSettings()

    override func setUpWithError() throws { fixtures = try Fixtures() }
    override func tearDown() { fixtures = nil }

    /// The same picture saved at quality 85 with no restarts and with one every `interval` MCUs
    /// (its DCT coefficients, hence its decoded pixels, are the same in every file).
    /// Saved from one draw of the noise, shared by the run (`Fixtures.noisyGradient`).
    private func photos(width: Int, height: Int, intervals: [Int]) throws -> (plain: String, restarted: [String]) {
        let detailed = try fixtures.noisyGradient(width: width, height: height, sigma: 24)
        let plain = try fixtures.jpeg("plain.jpg", from: detailed, ["--Q", "85"])
        let restarted = try intervals.map { interval -> String in
            try fixtures.jpeg("restart-\(interval).jpg", from: detailed, ["--Q", "85", "--restart-interval", "\(interval)"])
        }
        return (plain, restarted)
    }

    private func row(_ z: Int, _ y: Int, _ source: String) throws -> [TileCoordinate: [UInt8]] {
        let made = Mutex<[TileCoordinate: [UInt8]]>([:])
        try PhotoRenderer.render(.row(z: z, y: y), source: source, settings: settings) { tile, bytes in
            made.withLock { $0[tile!] = bytes }
        }
        return made.withLock { $0 }
    }

    func testARowIsCutFromItsBandAndIsTheWholeDecodesRow() throws {
        // 6000×4000: 375 MCUs of 16×16 a row; restarts every row, three times a row, every two rows.
        let (plain, restarted) = try photos(width: 6000, height: 4000, intervals: [375, 125, 750])
        let pyramid = TilePyramid(width: 6000, height: 4000)
        for source in restarted {
            let file = try PhotoSource.file(source).open()
            defer { file.close() }
            XCTAssertTrue(JPEGRows.restartsAtRows(descriptor: file.rawValue), source)
        }
        XCTAssertTrue(try PhotoRenderer.rendersRowAlone(source: .file(restarted[0]), tile: TileCoordinate(z: 5, x: 3, y: 7),
                                                        settings: settings))
        // Native rows (the first, one in the middle, the last and shorter one) and rows of the
        // levels decoded at 1/2 and 1/8.
        for (z, y) in [(5, 0), (5, 7), (5, 15), (4, 3), (2, 1)] {
            let whole = try wholeDecodeRow(z: z, y: y, of: plain, settings: settings)
            XCTAssertEqual(Set(whole.keys), Set((0..<pyramid.grid(z)!.columns).map { TileCoordinate(z: z, x: $0, y: y) }))
            for source in restarted {
                let before = JPEGRows.bandsDecoded.load(ordering: .relaxed)
                let cut = try row(z, y, source)
                XCTAssertEqual(Set(cut.keys), Set(whole.keys))
                XCTAssertEqual(cut.filter { whole[$0.key] != $0.value }.keys.map(\.description).sorted(), [],
                               "level \(z) row \(y) of \(source): the same tiles, byte for byte")
                XCTAssertEqual(JPEGRows.bandsDecoded.load(ordering: .relaxed), before + 1, "cut from a band")
            }
        }
        // And what libvips decodes there.
        let tile = TileCoordinate(z: 5, x: 11, y: 7)
        let cut = try fixtures.decode(try XCTUnwrap(try row(5, 7, restarted[0])[tile]))
        try fixtures.vips("crop", plain, fixtures.path("crop.png"), "\(11 * 256)", "\(7 * 256)", "256", "256")
        XCTAssertLessThan(try cut.meanAbsoluteDifference(to: VipsImage.open(fixtures.path("crop.png"), access: .random)), 2,
                          "the tile is the photo's pixels there, encoded once more")
    }

    func testAProgressiveJPEGIsNotCut() throws {
        let drawn = try fixtures.gradient("drawn.jpg", width: 1200, height: 900)
        let progressive = fixtures.path("progressive.jpg")
        try fixtures.vips("jpegsave", drawn, progressive, "--interlace", "--restart-interval", "75")
        let file = try PhotoSource.file(progressive).open()
        defer { file.close() }
        XCTAssertFalse(JPEGRows.restartsAtRows(descriptor: file.rawValue))
        XCTAssertNil(JPEGRows.band(descriptor: file.rawValue, scale: 1, holding: 256..<512))
    }
}
