import Foundation
@testable import Imaging
@testable import Library
import Synchronization
import XCTest
import TestSupport

/// A large photo before its pyramid exists: its fitted view is cut from the first stage's low
/// levels (not decoded from the photo again), and a native tile of a JPEG with restart markers,
/// or without them (cut with its scan index), is rendered from a band of the file beside the
/// build instead of waiting for the build.
final class BeforeThePyramidTests: XCTestCase {
    /// Saves the photo again at quality 85 with a restart every `interval` MCUs.
    private func restart(_ path: String, interval: Int) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["vips", "jpegsave", path, path + ".restarted.jpg", "--Q", "85", "--restart-interval", "\(interval)"]
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.moveItem(atPath: path + ".restarted.jpg", toPath: path)
    }

    private func decoded(_ bytes: [UInt8], at path: String) throws -> VipsImage {
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return try VipsImage.open(path, access: .random)
    }

    func testTheFittedViewOfAPhotoNotBuiltIsCutFromItsFirstStage() throws {
        let folders = try Folders(self)
        try folders.real("wide.jpg", 6000, 2000)
        let renderer = GatedBuildRenderer()
        let library = try folders.library(renderer: renderer)
        _ = try library.catalog.scan(.everything, options: PhotoCatalog.ScanOptions(examines: false))
        let photo = try XCTUnwrap(library.catalog.examine(1))
        // IIIF full/!1440,900/.
        let fitted = RegionRendition(region: PixelRect(x: 0, y: 0, width: 6000, height: 2000), width: 1440, height: 480)
        let bytes = try library.rendition(of: photo, fitted)
        XCTAssertEqual(renderer.units, [.first], "the first stage, which the ingest makes anyway")
        XCTAssertEqual(renderer.sourceRegions, 0, "the photo is not decoded once more for it")
        XCTAssertFalse(FileManager.default.fileExists(atPath: folders.data + "/tiles/\(photo.version)"), "no pyramid yet")
        let view = try decoded(bytes, at: folders.data + "/view.jpg")
        XCTAssertEqual([view.width, view.height], [1440, 480])
        let reference = try decoded(try PhotoRenderer.renderRegion(source: folders.photos + "/wide.jpg", fitted, settings: RenderSettings()),
                                    at: folders.data + "/reference.jpg")
        XCTAssertLessThan(try view.meanAbsoluteDifference(to: reference), 3, "the photo's pixels, as rendered from the photo itself")
    }

    func testANativeTileAskedWhileTheBuildRunsIsRenderedBesideIt() throws {
        let folders = try Folders(self)
        // Native is 10 MP: rendered a row of tiles at a time.
        try folders.real("photo1.jpg", 4000, 2500)
        // 4000 / 16 = 250 MCUs a row: a restart at every row.
        try restart(folders.photos + "/photo1.jpg", interval: 250)
        try assertNativeTileRenderedBesideTheBuild(folders)
    }

    func testANativeTileOfAJPEGWithoutRestartsIsRenderedBesideTheBuild() throws {
        let folders = try Folders(self)
        try folders.real("photo1.jpg", 4000, 2500)
        let file = try PhotoSource.file(folders.photos + "/photo1.jpg").open()
        defer { file.close() }
        XCTAssertFalse(JPEGRows.restartsAtRows(descriptor: file.rawValue), "no restarts: its rows are cut with its scan index")
        let bands = JPEGRows.bandsDecoded.load(ordering: .relaxed)
        try assertNativeTileRenderedBesideTheBuild(folders)
        XCTAssertEqual(JPEGRows.bandsDecoded.load(ordering: .relaxed), bands + 1, "the row was cut from a band")
    }

    /// Asks a native tile in the middle of photo1.jpg while its build is held at the gate.
    private func assertNativeTileRenderedBesideTheBuild(_ folders: Folders, file: StaticString = #filePath, line: UInt = #line) throws {
        let renderer = GatedBuildRenderer()
        let library = try folders.library(renderer: renderer)
        _ = try library.catalog.scan(.everything, options: PhotoCatalog.ScanOptions(examines: false))
        let photo = try XCTUnwrap(library.catalog.examine(1))
        let built = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            library.buildPyramid(photo)
            built.signal()
        }
        renderer.began.wait()
        // Native, in the middle: the build, held at its gate, has not made it.
        let tile = TileCoordinate(z: 4, x: 5, y: 4)
        let answer = Mutex<[UInt8]?>(nil)
        let answered = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            let bytes = try? library.image(of: photo, tile: tile)
            answer.withLock { $0 = bytes }
            answered.signal()
        }
        let came = answered.wait(timeout: .now() + 60)
        renderer.go.signal()
        XCTAssertEqual(came, .success, "answered while the build was held", file: file, line: line)
        XCTAssertEqual(renderer.units, [.row(z: 4, y: 4)], "its row, rendered beside the build", file: file, line: line)
        let neighbour = TileKey(version: photo.version, tile: TileCoordinate(z: 4, x: 6, y: 4))
        XCTAssertNotNil(library.cachedImage(neighbour), "the row's other tiles are kept in memory", file: file, line: line)
        XCTAssertEqual(built.wait(timeout: .now() + 60), .success)
        XCTAssertEqual(library.photo(1)?.status, .ready)
        let path = folders.data + "/tiles/\(photo.version)/4/5_4.jpg"
        XCTAssertEqual(answer.withLock { $0 }, FileManager.default.contents(atPath: path).map(Array.init),
                       "the build's tile, byte for byte: the same pixels, encoded alike", file: file, line: line)
    }
}
