import Foundation
import HTTP
import Imaging
@testable import Library
import Observability
import Synchronization
import XCTest
@testable import App

/// The photo routes over a real socket: the server's loops, worker pool and conditional requests.
final class PhotoLiveTests: XCTestCase {
    func testTilesThumbnailsAndPhotosOverTheWire() throws {
        let (root, photos) = try makeLiveRoot("photo-live")
        try DemoImage.write(to: photos + "/photo1.jpg", width: 1100, height: 600, seed: 4)
        let live = try startLivePhotoService(root: root, workerThreads: 4)
        let service = live.service, base = live.base
        let version = try XCTUnwrap(service.library.photo(1)).version

        let list = try HTTPClient.get(url: base + "/photos")
        XCTAssertEqual(list.status, 200)
        XCTAssertTrue(String(decoding: list.body, as: UTF8.self).contains("\"version\":\"\(version)\""))

        // Many clients at once for the same tiles: every answer is the same JPEG.
        let tiles = ["/photos/1/tiles/3/4/2.jpg", "/photos/1/tiles/2/1/1.jpg", "/photos/1/thumbnail.jpg"]
        let answers = Mutex<(bodies: [String: Set<[UInt8]>], statuses: [Int])>(([:], []))
        DispatchQueue.concurrentPerform(iterations: 12) { n in
            let path = tiles[n % tiles.count]
            let answer = try? HTTPClient.get(url: base + path + "?v=\(version)", timeoutSeconds: 20)
            answers.withLock {
                $0.statuses.append(answer?.status ?? -1)
                $0.bodies[path, default: []].insert(answer?.body ?? [])
            }
        }
        let (bodies, statuses) = answers.withLock { $0 }
        XCTAssertEqual(Set(statuses), [200])
        XCTAssertEqual(bodies.values.map(\.count), [1, 1, 1])

        let tile = try HTTPClient.get(url: base + "/photos/1/tiles/3/4/2.jpg?v=\(version)")
        XCTAssertEqual(tile.headers["Content-Type"], "image/jpeg")
        XCTAssertEqual(tile.headers["Cache-Control"], "public, max-age=31536000, immutable")
        XCTAssertEqual(Int(tile.headers["Content-Length"] ?? ""), tile.body.count)
        let etag = try XCTUnwrap(tile.headers["ETag"])
        let again = try HTTPClient.request(.GET, url: base + "/photos/1/tiles/3/4/2.jpg?v=\(version)", headers: ["If-None-Match": etag])
        XCTAssertEqual(again.status, 304)
        XCTAssertTrue(again.body.isEmpty)

        let head = try HTTPClient.request(.HEAD, url: base + "/photos/1/tiles/3/4/2.jpg")
        XCTAssertEqual(head.status, 200)
        XCTAssertEqual(head.headers["Cache-Control"], "public, max-age=60")

        let missing = try HTTPClient.get(url: base + "/photos/1/tiles/9/0/0.jpg")
        XCTAssertEqual(missing.status, 404)
        XCTAssertEqual(missing.headers["Content-Type"], "application/problem+json")
        XCTAssertEqual(try HTTPClient.get(url: base + "/photos/abc").status, 404)
    }
}
