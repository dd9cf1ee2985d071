import Foundation
import HTTP
import TestSupport
import XCTest

/// Uploads, favourites, moves and the trash on two replicas over one PostgreSQL database and
/// one data folder: an upload begun on one replica ends on the other, and what one replica
/// changes the other lists, comments and all.
final class ReplicaManageTests: XCTestCase {
    private static let json: HTTPHeaders = ["Content-Type": "application/json"]

    private func photos(_ server: ServerProcess) -> [[String: Any]] {
        ((try? server.request("/photos?limit=500"))?.object["photos"] as? [[String: Any]]) ?? []
    }

    private func send(_ server: ServerProcess, _ method: HTTPMethod, _ target: String, _ body: Any) throws -> HTTPClientResponse {
        try server.request(target, method: method, headers: Self.json, body: [UInt8](try JSONSerialization.data(withJSONObject: body)), timeout: 30)
    }

    func testUploadsFavouritesMovesAndTheTrashAcrossTwoReplicas() throws {
        let cluster = try ReplicaCluster(makePhotos: ReplicaCluster.smallPhotos(3))
        defer { cluster.tearDown() }
        try cluster.start(together: true)
        for server in cluster.replicas {
            XCTAssertTrue(eventually(timeout: 30) { self.photos(server).count == 3 }, "\(server.name)\n\(cluster.logs)")
        }
        let (a, b) = (cluster.a, cluster.b)

        // An upload made and half sent on A, finished on B.
        let photo = try UploadFixtures.jpeg(width: 400, height: 300, seed: 41)
        let tus: HTTPHeaders = ["Tus-Resumable": "1.0.0", "Content-Type": "application/offset+octet-stream"]
        var creation = tus
        creation.add("Upload-Length", String(photo.count))
        creation.add("Upload-Metadata", "filename " + Data("across.jpg".utf8).base64EncodedString())
        let created = try a.request("/uploads/", method: .POST, headers: creation)
        XCTAssertEqual(created.status, 201, created.text)
        let location = try XCTUnwrap(created.headers["Location"])
        let half = photo.count / 2
        var first = tus
        first.add("Upload-Offset", "0")
        XCTAssertEqual(try a.request(location, method: .PATCH, headers: first, body: Array(photo[..<half])).status, 204)
        XCTAssertEqual(try b.request(location, method: .HEAD, headers: ["Tus-Resumable": "1.0.0"]).headers["Upload-Offset"], String(half))
        var rest = tus
        rest.add("Upload-Offset", String(half))
        let finished = try b.request(location, method: .PATCH, headers: rest, body: Array(photo[half...]), timeout: 30)
        XCTAssertEqual(finished.status, 204, finished.text)
        let uploaded = try XCTUnwrap(finished.headers["Photo-ID"].flatMap(Int.init))
        XCTAssertTrue(eventually(timeout: 30) { self.photos(a).contains { $0["id"] as? Int == uploaded } }, "A lists B's upload\n\(cluster.logs)")
        let stored = try FileManager.default.subpathsOfDirectory(atPath: cluster.photosDirectory.path).filter { $0.hasSuffix("across.jpg") }
        XCTAssertEqual(stored.count, 1)
        XCTAssertEqual([UInt8](try Data(contentsOf: cluster.photosDirectory.appendingPathComponent(stored[0]))), photo)

        // A favourite marked on A is one on B.
        XCTAssertEqual(try a.request("/favourites/1", method: .PUT).status, 204)
        XCTAssertEqual(try b.request("/favourites").object["ids"] as? [Int], [1])

        // A comment on photo 1, the photo moved on B: the same id on both, the comment with it.
        let comment = try a.request("/photos/1/comments", method: .POST, headers: Self.json, body: Array("{\"text\":\"before the move\"}".utf8))
        XCTAssertEqual(comment.status, 201, comment.text)
        let moved = try send(b, .POST, "/photos/move", ["ids": [1], "folder": "Kept"])
        XCTAssertEqual(moved.status, 200, moved.text)
        XCTAssertEqual((moved.object["photos"] as? [[String: Any]])?.first?["id"] as? Int, 1)
        XCTAssertTrue(FileManager.default.fileExists(atPath: cluster.photosDirectory.appendingPathComponent("Kept/photo-1.jpg").path))
        for server in cluster.replicas {
            XCTAssertTrue(eventually(timeout: 30) {
                ((try? server.request("/folders"))?.object["folders"] as? [[String: Any]])?.contains { $0["path"] as? String == "Kept" } ?? false
            }, "\(server.name) lists the new folder\n\(cluster.logs)")
            let comments = try server.request("/photos/1/comments").object["comments"] as? [[String: Any]]
            XCTAssertEqual(comments?.first?["text"] as? String, "before the move", server.name)
        }

        // Trashed on A, the trash seen and restored on B: the photo is back under its id, with its comment.
        let trashed = try send(a, .POST, "/photos/trash", ["ids": [1]])
        XCTAssertEqual(trashed.status, 200, trashed.text)
        XCTAssertTrue(eventually(timeout: 30) { !self.photos(b).contains { $0["id"] as? Int == 1 } }, "B drops the trashed photo")
        XCTAssertEqual((try b.request("/trash").object["items"] as? [[String: Any]])?.first?["photo"] as? Int, 1)
        let restored = try send(b, .POST, "/trash/restore", ["batch": try XCTUnwrap(trashed.object["batch"] as? String)])
        XCTAssertEqual(restored.status, 200, restored.text)
        XCTAssertEqual((restored.object["photos"] as? [[String: Any]])?.first?["id"] as? Int, 1)
        XCTAssertTrue(eventually(timeout: 30) { self.photos(a).contains { $0["id"] as? Int == 1 } }, "A lists the restored photo\n\(cluster.logs)")
        XCTAssertEqual((try a.request("/photos/1/comments").object["comments"] as? [[String: Any]])?.count, 1)
        XCTAssertEqual(try a.request("/favourites").object["ids"] as? [Int], [1])
    }
}
