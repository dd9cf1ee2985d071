import Foundation
import HTTP
import Imaging
@testable import Library
import Observability
import Synchronization
import XCTest
@testable import App

/// The IIIF service over a real socket: the event loops' encoded answers for tiles in memory
/// are the same answers the full path gives, for each origin and caching, and many clients
/// asking for one region at once get one image.
final class IIIFLiveTests: XCTestCase {
    func testTileAnswersFromMemoryMatchTheFullPath() throws {
        let (root, photos) = try makeLiveRoot("iiif-live")
        try DemoImage.write(to: photos + "/photo1.jpg", width: 1100, height: 600, seed: 4)
        let live = try startLivePhotoService(root: root, workerThreads: 4)
        let service = live.service, server = live.server, base = live.base
        let version = try XCTUnwrap(service.library.photo(1)).version

        // Level 2 of 3, column 1, row 0: 512 full pixels per tile.
        let tileURL = base + "/iiif/3/1/512,0,512,512/256,256/0/default.jpg"
        let canonical = "<\(base)/iiif/3/1/512,0,512,512/256,256/0/default.jpg>;rel=\"canonical\",<http://iiif.io/api/image/3/level2.json>;rel=\"profile\""
        var answers: [(status: Int, headers: HTTPHeaders, body: [UInt8])] = []
        for _ in 0..<3 { answers.append(try HTTPClient.get(url: tileURL)) }
        let tile = try HTTPClient.get(url: base + "/photos/1/tiles/2/1/0.jpg?v=\(version)")
        for answer in answers {
            XCTAssertEqual(answer.status, 200)
            XCTAssertTrue(answer.body == tile.body, "the tile's own bytes")
            XCTAssertEqual(answer.headers["Content-Type"], "image/jpeg")
            XCTAssertEqual(answer.headers["ETag"], tile.headers["ETag"])
            XCTAssertEqual(answer.headers["Cache-Control"], "public, max-age=60")
            XCTAssertEqual(answer.headers["Access-Control-Allow-Origin"], "*")
            XCTAssertEqual(answer.headers["Link"], canonical)
        }
        XCTAssertEqual(tile.headers["Access-Control-Allow-Origin"], "*", "plain tiles allow any origin too")
        // With the version: immutable; under another Host name: that name.
        let versioned = try HTTPClient.get(url: tileURL + "?v=\(version)")
        XCTAssertEqual(versioned.headers["Cache-Control"], "public, max-age=31536000, immutable")
        XCTAssertEqual(try HTTPClient.get(url: tileURL).headers["Cache-Control"], "public, max-age=60")
        let localhost = try HTTPClient.get(url: "http://localhost:\(server.port)/iiif/3/1/512,0,512,512/256,256/0/default.jpg")
        XCTAssertEqual(localhost.headers["Link"]?.hasPrefix("<http://localhost:\(server.port)/iiif/3/1/"), true, "another Host, another answer")
        XCTAssertTrue(localhost.body == tile.body)
        XCTAssertEqual(try HTTPClient.get(url: tileURL).headers["Link"], canonical, "and back")
        // The memory answer does not shadow the conditional path.
        let etag = try XCTUnwrap(answers[0].headers["ETag"])
        XCTAssertEqual(try HTTPClient.request(.GET, url: tileURL, headers: ["If-None-Match": etag]).status, 304)
        let head = try HTTPClient.request(.HEAD, url: tileURL)
        XCTAssertEqual(head.status, 200)
        XCTAssertTrue(head.body.isEmpty)

        // Twelve clients at once for one rendition: one image.
        let twelve = Mutex<(bodies: Set<[UInt8]>, statuses: [Int])>(([], []))
        DispatchQueue.concurrentPerform(iterations: 12) { _ in
            let answer = try? HTTPClient.get(url: base + "/iiif/3/1/100,100,700,400/!350,350/0/default.png", timeoutSeconds: 30)
            twelve.withLock {
                $0.statuses.append(answer?.status ?? -1)
                $0.bodies.insert(answer?.body ?? [])
            }
        }
        let (bodies, statuses) = twelve.withLock { $0 }
        XCTAssertEqual(Set(statuses), [200])
        XCTAssertEqual(bodies.count, 1)

        // Bytes a URL may hold but the grammar does not: 400, and the connection is fine.
        for path in ["full/max/0/d%5Bfault.jpg", "full/%5E%5E/0/default.jpg", "full/max/%21%21/default.jpg", "ful%60/max/0/default.jpg"] {
            let answer = try HTTPClient.get(url: base + "/iiif/3/1/" + path)
            XCTAssertEqual(answer.status, 400, path)
            XCTAssertEqual(answer.headers["Access-Control-Allow-Origin"], "*", path)
        }
    }
}
