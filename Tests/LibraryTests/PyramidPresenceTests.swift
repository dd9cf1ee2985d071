import Foundation
import Imaging
@testable import Library
import Observability
import XCTest

/// A photo is `ready` only while its pyramid is on disk.
final class PyramidPresenceTests: XCTestCase {
    func testAPyramidDeletedBehindOurBackIsNoticedAndRebuilt() throws {
        let folders = try Folders(self)
        for i in 0..<5 { folders.fake("img\(i).jpg", 600, 400 + i) }
        let renderer = FakeRenderer()
        let library = try folders.library(renderer: renderer)
        library.refresh()
        XCTAssertTrue(library.waitForIngest(timeoutSeconds: 30))
        let victim = try XCTUnwrap(library.photo(2))
        try FileManager.default.removeItem(atPath: library.catalog.pyramidDirectory(victim.version))

        // The next full scan turns it back to processing, says so, and queues it.
        let result = try library.catalog.scan()
        XCTAssertEqual(result.changed, [2])
        XCTAssertEqual(result.pending, [2])
        XCTAssertEqual(library.photo(2)?.status, .processing)
        library.refresh()
        XCTAssertTrue(library.waitForIngest(timeoutSeconds: 30))
        XCTAssertEqual(library.photo(2)?.status, .ready)
        XCTAssertEqual(renderer.builds, 6)
    }

    func testOnStartAPhotoWithoutItsPyramidIsProcessingAndQueued() throws {
        let folders = try Folders(self)
        folders.fake("a.jpg", 600, 400)
        folders.fake("b.jpg", 400, 600)
        do {
            let library = try folders.library(renderer: FakeRenderer())
            library.refresh()
            XCTAssertTrue(library.waitForIngest(timeoutSeconds: 30))
            XCTAssertEqual(library.photos.map(\.status), [.ready, .ready])
            library.stop()
        }
        try FileManager.default.removeItem(atPath: folders.data + "/tiles")
        let renderer = FakeRenderer()
        let restarted = try folders.library(renderer: renderer)
        XCTAssertEqual(restarted.photos.map(\.status), [.processing, .processing], "never ready without a pyramid")
        restarted.refresh()
        XCTAssertTrue(restarted.waitForIngest(timeoutSeconds: 30))
        XCTAssertEqual(restarted.photos.map(\.status), [.ready, .ready])
        XCTAssertEqual(renderer.builds, 2)
    }

    func testATileMissingFromAReadyPyramidIsRenderedAndThePyramidRebuilt() throws {
        let folders = try Folders(self)
        folders.fake("a.jpg", 600, 400)
        let renderer = FakeRenderer()
        let library = try folders.library(renderer: renderer, cacheBytes: 0)
        library.refresh()
        XCTAssertTrue(library.waitForIngest(timeoutSeconds: 30))
        let photo = try XCTUnwrap(library.photo(1))
        // The rebuild takes a moment, as a real one does: an instant one could be over before the
        // photo's status is read, and the test would see it ready again.
        renderer.buildDelaySeconds = 1
        try FileManager.default.removeItem(atPath: library.builtPath(of: photo, tile: TileCoordinate(z: 1, x: 1, y: 0)))
        XCTAssertEqual(try library.image(of: photo, tile: TileCoordinate(z: 1, x: 1, y: 0)), Array("rendered 1/1/0".utf8))
        XCTAssertEqual(library.photo(1)?.status, .processing)
        XCTAssertTrue(library.waitForIngest(timeoutSeconds: 30))
        XCTAssertEqual(library.photo(1)?.status, .ready)
        XCTAssertEqual(try library.image(of: photo, tile: TileCoordinate(z: 1, x: 1, y: 0)), Array("disk 1/1/0".utf8))
    }
}
