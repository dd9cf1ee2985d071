import Foundation
import Imaging
@testable import Library
import Observability
import XCTest

/// Real libvips: pyramids on disk, failures of real broken files, the demo drawing.
final class IngestTests: XCTestCase {
    func testIngestWritesEveryTileOfThePyramidAndTheThumbnail() throws {
        let folders = try Folders(self)
        try folders.real("photo1.jpg", 1500, 700)
        let metrics = MetricsRegistry()
        let library = try folders.library(metrics: metrics)
        library.refresh()
        XCTAssertTrue(library.waitForIngest(timeoutSeconds: 60))
        let photo = try XCTUnwrap(library.photo(1))
        XCTAssertEqual(photo.status, .ready)
        XCTAssertEqual([photo.width, photo.height], [1500, 700])
        let pyramid = try XCTUnwrap(photo.pyramid(tileSize: 256))
        let directory = library.catalog.pyramidDirectory(photo.version)
        for z in 0...pyramid.maxZoom {
            let grid = pyramid.grid(z)!
            for x in 0..<grid.columns { for y in 0..<grid.rows {
                let path = PhotoRenderer.tilePath(in: directory, TileCoordinate(z: z, x: x, y: y))
                XCTAssertTrue(FileManager.default.fileExists(atPath: path), path)
            } }
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: directory + "/thumbnail.jpg"))
        XCTAssertEqual(metrics.histogram("photoscroll_ingest_duration_seconds", help: "").count(), 1)
        XCTAssertEqual(metrics.gauge("photoscroll_photos", help: "").value([("status", "ready")]), 1)
        XCTAssertEqual(metrics.gauge("photoscroll_ingest_queue_length", help: "").value(), 0)
    }

    func testBrokenFilesFailWithReasonsAndTheOthersStillWork() throws {
        let folders = try Folders(self)
        try folders.real("good.jpg", 600, 400)
        try folders.real("whole.jpg", 2000, 1500, seed: 3)
        let whole = try Data(contentsOf: URL(fileURLWithPath: folders.photos + "/whole.jpg"))
        try whole.prefix(whole.count / 3).write(to: URL(fileURLWithPath: folders.photos + "/truncated.jpg"))
        try FileManager.default.removeItem(atPath: folders.photos + "/whole.jpg")
        FileManager.default.createFile(atPath: folders.photos + "/empty.jpg", contents: Data())
        FileManager.default.createFile(atPath: folders.photos + "/text.png", contents: Data("not a picture".utf8))
        let metrics = MetricsRegistry()
        let library = try folders.library(metrics: metrics)
        library.refresh()
        XCTAssertTrue(library.waitForIngest(timeoutSeconds: 60))
        let byTitle = Dictionary(uniqueKeysWithValues: library.photos.map { ($0.title, $0) })
        XCTAssertEqual(byTitle["good"]?.status, .ready)
        for name in ["truncated", "empty", "text"] {
            XCTAssertEqual(byTitle[name]?.status, .failed, name)
            XCTAssertFalse(byTitle[name]?.error?.isEmpty ?? true, name)
        }
        XCTAssertGreaterThanOrEqual(metrics.counter("photoscroll_ingest_failures_total", help: "").value(), 1)
        XCTAssertEqual(metrics.gauge("photoscroll_photos", help: "").value([("status", "failed")]), 3)
        // The failure survives a restart without building again.
        let restarted = try folders.library()
        XCTAssertEqual(restarted.photos.first { $0.title == "truncated" }?.status, .failed)
    }

    func testDemoDrawsItsPhotosOnceInNameOrder() throws {
        let folders = try Folders(self)
        let shots = [DemoLibrary.Shot(name: "photo1.jpg", width: 400, height: 300),
                     DemoLibrary.Shot(name: "photo2.jpg", width: 300, height: 400)]
        let demo = DemoLibrary(directory: folders.photos + "/demo", shots: shots, logger: .disabled)
        try FileManager.default.createDirectory(atPath: demo.directory, withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: demo.directory + "/.photo2.jpg.99.tmp.jpg", contents: Data("half".utf8))
        var landed = 0
        demo.make(onPhoto: { landed += 1 })
        XCTAssertFalse(FileManager.default.fileExists(atPath: demo.directory + "/.photo2.jpg.99.tmp.jpg"), "leftovers are cleared")
        XCTAssertEqual(landed, 2)
        XCTAssertTrue(demo.isComplete)
        let names = try FileManager.default.contentsOfDirectory(atPath: demo.directory).filter { !$0.hasPrefix(".") }.sorted()
        XCTAssertEqual(names, ["photo1.jpg", "photo2.jpg"])
        let size = try VipsPhotoRendering(settings: RenderSettings()).probe(.file(demo.directory + "/photo2.jpg"))
        XCTAssertEqual(size, PhotoSize(width: 300, height: 400))
        // A photo the person deleted stays deleted.
        try FileManager.default.removeItem(atPath: demo.directory + "/photo1.jpg")
        demo.make(onPhoto: { landed += 1 })
        XCTAssertEqual(landed, 2)
    }
}
