import Foundation
import Imaging
@testable import Library
import Observability
import Synchronization
import XCTest

final class TileServingTests: XCTestCase {
    func testConcurrentRequestsForOneMissingTileRenderItOnce() throws {
        let folders = try Folders(self)
        folders.fake("photo1.jpg", 2000, 1000)
        let renderer = FakeRenderer()
        renderer.delaySeconds = 0.2
        let metrics = MetricsRegistry()
        let library = try folders.library(renderer: renderer, metrics: metrics)
        library.ingest.stop()  // no ingest: every tile must be rendered on demand
        library.refresh()
        let photo = try XCTUnwrap(library.photo(1))
        let tile = TileCoordinate(z: 3, x: 2, y: 1)
        let bodies = Mutex<[[UInt8]]>([])
        DispatchQueue.concurrentPerform(iterations: 16) { _ in
            let bytes = try? library.image(of: photo, tile: tile)
            bodies.withLock { $0.append(bytes ?? []) }
        }
        XCTAssertEqual(renderer.tileRenders, 1)
        XCTAssertEqual(Set(bodies.withLock { $0 }), [Array("rendered 3/2/1".utf8)])
        // The next request is a memory hit.
        XCTAssertEqual(library.cachedImage(TileKey(version: photo.version, tile: tile))?.bytes, Array("rendered 3/2/1".utf8))
        XCTAssertEqual(renderer.tileRenders, 1)
        library.flushMetrics()
        let hits = metrics.counter("photoscroll_tile_cache_hits_total", help: "").value()
        XCTAssertGreaterThanOrEqual(hits, 1)
        // Batched hits all arrive once flushed.
        for _ in 0..<100 { _ = library.cachedImage(TileKey(version: photo.version, tile: tile)) }
        library.flushMetrics()
        XCTAssertEqual(metrics.counter("photoscroll_tile_cache_hits_total", help: "").value(), hits + 100)
        XCTAssertEqual(metrics.gauge("photoscroll_tile_cache_bytes", help: "").value(), Double(library.cache.bytes))
        // A render of the metrics adds the hits counted so far by itself.
        for _ in 0..<7 { _ = library.cachedImage(TileKey(version: photo.version, tile: tile)) }
        XCTAssertTrue(metrics.render().contains("photoscroll_tile_cache_hits_total \(Int(hits) + 107)\n"))
    }

    func testBuildsWaitTheirDelaySoFirstTilesRenderAlone() throws {
        let folders = try Folders(self)
        folders.fake("photo1.jpg", 700, 500)
        let renderer = FakeRenderer()
        let library = try PhotoLibrary(configuration: LibraryConfiguration(
            photosDirectory: folders.photos, dataDirectory: folders.data, rescanSeconds: 0, ingestDelaySeconds: 1),
            renderer: renderer, logger: .disabled, metrics: .init())
        defer { library.stop(); library.waitForIngest(timeoutSeconds: 60) }
        library.refresh()
        let photo = try XCTUnwrap(library.photo(1))
        XCTAssertEqual(try library.image(of: photo, tile: TileCoordinate(z: 0, x: 0, y: 0)), Array("rendered 0/0/0".utf8))
        XCTAssertEqual(renderer.builds, 0, "the build has not started yet")
        XCTAssertTrue(library.waitForIngest(timeoutSeconds: 60))
        XCTAssertEqual(renderer.builds, 1)
        XCTAssertEqual(library.photo(1)?.status, .ready)
    }

    func testBuiltPyramidIsReadFromDiskNotRendered() throws {
        let folders = try Folders(self)
        folders.fake("photo1.jpg", 700, 500)
        let renderer = FakeRenderer()
        let library = try folders.library(renderer: renderer)
        library.refresh()
        XCTAssertTrue(library.waitForIngest(timeoutSeconds: 60))
        let photo = try XCTUnwrap(library.photo(1))
        XCTAssertEqual(photo.status, .ready)
        XCTAssertEqual(renderer.tileRenders, 1, "the first stage renders the thumbnail, once")
        XCTAssertEqual(try library.image(of: photo, tile: TileCoordinate(z: 2, x: 2, y: 1)), Array("disk 2/2/1".utf8))
        XCTAssertEqual(try library.image(of: photo, tile: nil), Array("disk thumbnail".utf8))
        XCTAssertEqual(renderer.tileRenders, 1, "nothing rendered once built")
        XCTAssertEqual(renderer.builds, 1)
        // A rescan finds the pyramid there and does not build again.
        library.refresh()
        XCTAssertTrue(library.waitForIngest(timeoutSeconds: 60))
        XCTAssertEqual(renderer.builds, 1)
    }

    func testStaleVersionsAreCollectedAndCurrentOnesKept() throws {
        let folders = try Folders(self)
        folders.fake("photo1.jpg", 300, 300, extra: "one")
        folders.fake("photo2.jpg", 300, 300)
        let library = try folders.library(renderer: FakeRenderer(), garbageAge: 0)
        library.refresh()
        XCTAssertTrue(library.waitForIngest(timeoutSeconds: 60))
        let old = try XCTUnwrap(library.photo(1)).version
        let kept = try XCTUnwrap(library.photo(2)).version
        XCTAssertTrue(FileManager.default.fileExists(atPath: library.catalog.pyramidDirectory(old)))

        folders.fake("photo1.jpg", 300, 300, extra: "two")
        library.refresh()
        XCTAssertTrue(library.waitForIngest(timeoutSeconds: 60))
        let new = try XCTUnwrap(library.photo(1)).version
        XCTAssertNotEqual(new, old)
        library.refresh()
        XCTAssertFalse(FileManager.default.fileExists(atPath: library.catalog.pyramidDirectory(old)))
        XCTAssertTrue(FileManager.default.fileExists(atPath: library.catalog.pyramidDirectory(new)))
        XCTAssertTrue(FileManager.default.fileExists(atPath: library.catalog.pyramidDirectory(kept)))
    }

    func testYoungStaleVersionsWaitForTheirAge() throws {
        let folders = try Folders(self)
        folders.fake("photo1.jpg", 300, 300)
        let library = try folders.library(renderer: FakeRenderer(), garbageAge: 60)
        let stray = library.configuration.tilesDirectory + "/0123456789ab"
        try FileManager.default.createDirectory(atPath: stray, withIntermediateDirectories: true)
        library.refresh()
        XCTAssertTrue(FileManager.default.fileExists(atPath: stray))
        XCTAssertEqual(library.collectGarbage(now: Date().addingTimeInterval(61)), ["0123456789ab"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: stray))
    }
}
