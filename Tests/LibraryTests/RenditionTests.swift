import Foundation
import Imaging
import Synchronization
@testable import Library
import XCTest

/// Regions rendered on request: one render for many callers, kept in the tile cache, from the
/// pyramid once it is built and from the photo before.
final class RenditionTests: XCTestCase {
    let region = RegionRendition(region: PixelRect(x: 100, y: 50, width: 800, height: 400), width: 400, height: 200)

    func testConcurrentRequestsShareOneRenderAndTheCacheKeepsIt() throws {
        let folders = try Folders(self)
        folders.fake("photo1.jpg", 2000, 1000)
        let renderer = FakeRenderer()
        renderer.delaySeconds = 0.2
        let library = try folders.library(renderer: renderer)
        // Stopped first: a first stage started by the scan would examine the photo midway and
        // give the renditions two versions.
        library.ingest.stop()
        library.refresh()
        let photo = try XCTUnwrap(library.photo(1))
        let bodies = Mutex<[[UInt8]]>([])
        let region = self.region
        DispatchQueue.concurrentPerform(iterations: 12) { _ in
            let bytes = try? library.rendition(of: photo, region)
            bodies.withLock { $0.append(bytes ?? []) }
        }
        XCTAssertEqual(renderer.tileRenders, 1)
        XCTAssertEqual(Set(bodies.withLock { $0 }), [Array("source \(region.name)".utf8)], "no pyramid yet: from the photo")
        let key = TileKey(version: photo.version, rendition: region.name)
        XCTAssertNotNil(library.cachedImage(key))
        XCTAssertNotEqual(key, TileKey(version: photo.version, tile: nil), "a rendition is not the thumbnail")
        // Another rendition is another render.
        var other = region
        other.mirrored = true
        _ = try library.rendition(of: photo, other)
        XCTAssertEqual(renderer.tileRenders, 2)
    }

    func testOnceThePyramidIsBuiltRegionsAreCutFromIt() throws {
        let folders = try Folders(self)
        folders.fake("photo1.jpg", 2000, 1000)
        let renderer = FakeRenderer()
        let library = try folders.library(renderer: renderer)
        library.refresh()
        XCTAssertTrue(library.waitForIngest(timeoutSeconds: 60))
        let photo = try XCTUnwrap(library.photo(1))
        XCTAssertEqual(try library.rendition(of: photo, region), Array("pyramid \(region.name)".utf8))
    }
}
