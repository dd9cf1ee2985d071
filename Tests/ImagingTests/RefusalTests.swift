import Foundation
import XCTest
@testable import Imaging

/// Files that are not photos, damaged photos and decompression bombs fail with a clear error.
final class RefusalTests: XCTestCase {
    private var fixtures: Fixtures!
    private let settings = RenderSettings()

    override func setUpWithError() throws { fixtures = try Fixtures() }
    override func tearDown() { fixtures = nil }

    /// Runs every entry point on `source` and hands each error to `check`.
    private func assertEveryEntryPointThrows(_ source: String, _ check: (ImagingError, String) -> Void,
                                             file: StaticString = #filePath, line: UInt = #line) {
        let calls: [(String, () throws -> Void)] = [
            ("probe", { _ = try PhotoRenderer.probe(source, settings: self.settings) }),
            ("buildPyramid", { _ = try PhotoRenderer.buildPyramid(source: source, into: self.fixtures.path("pyramid"), settings: self.settings) }),
            ("renderTile", { _ = try PhotoRenderer.renderTile(source: source, tile: TileCoordinate(z: 0, x: 0, y: 0), settings: self.settings) }),
            ("thumbnail", { _ = try PhotoRenderer.thumbnail(source: source, settings: self.settings) }),
        ]
        for (name, call) in calls {
            do {
                try call()
                XCTFail("\(name) accepted \(source)", file: file, line: line)
            } catch let error as ImagingError {
                check(error, name)
            } catch {
                XCTFail("\(name): \(error) is not an ImagingError", file: file, line: line)
            }
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: fixtures.path("pyramid")), file: file, line: line)
    }

    func testEmptyFileIsNotAnImage() throws {
        XCTAssertTrue(FileManager.default.createFile(atPath: fixtures.path("empty.jpg"), contents: Data()))
        assertEveryEntryPointThrows(fixtures.path("empty.jpg")) { error, call in
            guard case .notAnImage = error else { return XCTFail("\(call): \(error)") }
        }
    }

    func testTextNamedJPEGIsNotAnImage() throws {
        try Data("Dear diary, today I took a photo.\n".utf8).write(to: URL(fileURLWithPath: fixtures.path("notes.jpg")))
        assertEveryEntryPointThrows(fixtures.path("notes.jpg")) { error, call in
            guard case .notAnImage = error else { return XCTFail("\(call): \(error)") }
        }
    }

    /// Loaders libvips has not hardened against hostile files (here PPM) are switched off.
    func testUntrustedLoadersAreRefused() throws {
        try fixtures.ppm("plain.ppm", width: 8, height: 8) { _, _ in RGB(red: 1, green: 2, blue: 3) }
        assertEveryEntryPointThrows(fixtures.path("plain.ppm")) { error, call in
            guard case .notAnImage = error else { return XCTFail("\(call): \(error)") }
        }
    }

    /// A pyramid folder that cannot be written is a file problem, not a damaged photo.
    func testUnwritableDestinationIsAnIOError() throws {
        let photo = try fixtures.gradient("photo.png", width: 300, height: 200)
        XCTAssertThrowsError(try PhotoRenderer.buildPyramid(source: photo, into: "/proc/photoscroll-pyramid", settings: settings)) {
            guard case .io = $0 as? ImagingError else { return XCTFail("\($0)") }
        }
    }

    func testMissingFileIsAnIOError() {
        assertEveryEntryPointThrows(fixtures.path("nowhere.jpg")) { error, call in
            guard case .io = error else { return XCTFail("\(call): \(error)") }
        }
    }

    func testTruncatedJPEGIsCorrupt() throws {
        let whole = try fixtures.gradient("whole.jpg", width: 800, height: 600)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: whole))
        try bytes.prefix(bytes.count * 2 / 3).write(to: URL(fileURLWithPath: fixtures.path("truncated.jpg")))
        // The header is intact, so probing succeeds; anything that decodes the missing rows fails.
        XCTAssertEqual(try PhotoRenderer.probe(fixtures.path("truncated.jpg"), settings: settings).width, 800)
        for (name, call) in [
            ("buildPyramid", { _ = try PhotoRenderer.buildPyramid(source: self.fixtures.path("truncated.jpg"), into: self.fixtures.path("pyramid"), settings: self.settings) }),
            ("renderTile 0/0/0", { _ = try PhotoRenderer.renderTile(source: self.fixtures.path("truncated.jpg"), tile: TileCoordinate(z: 0, x: 0, y: 0), settings: self.settings) }),
            ("renderTile 2/0/2", { _ = try PhotoRenderer.renderTile(source: self.fixtures.path("truncated.jpg"), tile: TileCoordinate(z: 2, x: 0, y: 2), settings: self.settings) }),
            ("thumbnail", { _ = try PhotoRenderer.thumbnail(source: self.fixtures.path("truncated.jpg"), settings: self.settings) }),
        ] as [(String, () throws -> Void)] {
            XCTAssertThrowsError(try call(), name) { error in
                guard case .corrupt(let why)? = error as? ImagingError else { return XCTFail("\(name): \(error)") }
                XCTAssertFalse(why.isEmpty)
            }
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: fixtures.path("pyramid")))
    }

    func testDamagedHeaderIsCorrupt() throws {
        let whole = try fixtures.gradient("whole.jpg", width: 300, height: 200)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: whole))
        // SOI and the start of the first segment: recognisably JPEG, but no frame header.
        try bytes.prefix(12).write(to: URL(fileURLWithPath: fixtures.path("stub.jpg")))
        assertEveryEntryPointThrows(fixtures.path("stub.jpg")) { error, call in
            guard case .corrupt = error else { return XCTFail("\(call): \(error)") }
        }
    }

    /// A PNG's header claiming 65535×65535 over a few dozen bytes: refused as a bomb, not built.
    func testTinyFileClaimingTheLargestPNGIsABomb() throws {
        let bomb = fixtures.path("claim.png")
        try PNGBomb.writeClaim(to: bomb, width: 65535, height: 65535)
        let size = try FileManager.default.attributesOfItem(atPath: bomb)[.size] as! Int
        assertEveryEntryPointThrows(bomb) { error, call in
            XCTAssertEqual(error, .tooLarge(.decompressionBomb(width: 65535, height: 65535, fileBytes: size)), call)
        }
    }

    /// The memory bound refuses what its build could not hold, naming the setting.
    func testMemoryBoundComesFromSettings() throws {
        let photo = try fixtures.gradient("wide.png", width: 3000, height: 20)
        var tight = settings
        tight.buildMemoryBytes = 8 << 20
        XCTAssertThrowsError(try PhotoRenderer.probe(photo, settings: tight)) { error in
            guard case .tooLarge(.overMemoryBound(3000, 20, let needed, 8))? = error as? ImagingError else { return XCTFail("\(error)") }
            XCTAssertGreaterThan(needed, 8)
            XCTAssertTrue("\(error)".contains("buildMemoryMegabytes"))
        }
        tight.buildMemoryBytes = 16 << 20
        XCTAssertEqual(try PhotoRenderer.probe(photo, settings: tight).width, 3000)
    }

    /// A real build within the bound, with no pixel cap: every tile written; below it, refused
    /// before a pixel is decoded and nothing written.
    func testBuildWithinTheMemoryBoundAndRefusedBelowIt() throws {
        let photo = try fixtures.gradient("wide.jpg", width: 3000, height: 600)
        var roomy = settings
        roomy.buildMemoryBytes = 12 << 20
        XCTAssertEqual(roomy.maxImagePixels, 0, "no fixed cap by default")
        let pyramid = try PhotoRenderer.buildPyramid(source: photo, into: fixtures.path("built"), settings: roomy)
        XCTAssertEqual(pyramid.maxZoom, 4)
        XCTAssertTrue(FileManager.default.fileExists(atPath: fixtures.path("built/4/11_2.jpg")))
        var tight = settings
        tight.buildMemoryBytes = 8 << 20
        XCTAssertThrowsError(try PhotoRenderer.buildPyramid(source: photo, into: fixtures.path("refused"), settings: tight)) { error in
            guard case .tooLarge(.overMemoryBound(3000, 600, 11, 8))? = error as? ImagingError else { return XCTFail("\(error)") }
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: fixtures.path("refused")))
    }

    func testPixelLimitComesFromSettings() throws {
        let photo = try fixtures.gradient("photo.png", width: 300, height: 200)
        var small = settings
        small.maxImagePixels = 300 * 200 - 1
        XCTAssertThrowsError(try PhotoRenderer.probe(photo, settings: small)) {
            XCTAssertEqual($0 as? ImagingError, .tooLarge(.overPixelCap(width: 300, height: 200, limit: 59_999)))
        }
        small.maxImagePixels = 300 * 200
        XCTAssertEqual(try PhotoRenderer.probe(photo, settings: small).width, 300)
    }

    /// 40000×40000 1-bit PNG: under 200 kB on disk, 1.6 gigapixels decoded. Refused from the header.
    func testDecompressionBombIsRefusedWithFlatMemory() throws {
        let bomb = fixtures.path("bomb.png")
        try PNGBomb.write(to: bomb, width: 40000, height: 40000)
        // It is a real PNG: libvips reads its header and decodes its first rows as black.
        try fixtures.vips("crop", bomb, fixtures.path("corner.png"), "0", "0", "64", "64")
        let corner = try VipsImage.open(fixtures.path("corner.png"), access: .random)
        XCTAssertEqual([corner.width, corner.height], [64, 64])
        XCTAssertEqual(try corner.pixel(x: 63, y: 63), [0])
        let size = try FileManager.default.attributesOfItem(atPath: bomb)[.size] as! Int
        XCTAssertLessThan(size, 400_000, "the bomb is small on disk")

        resetPeakMemory()
        let before = memoryKilobytes()
        assertEveryEntryPointThrows(bomb) { error, call in
            XCTAssertEqual(error, .tooLarge(.decompressionBomb(width: 40000, height: 40000, fileBytes: size)), call)
        }
        let after = memoryKilobytes()
        XCTAssertLessThan(after.peak - before.resident, 100_000, "peak RSS grew by \(after.peak - before.resident) kB")
    }
}
