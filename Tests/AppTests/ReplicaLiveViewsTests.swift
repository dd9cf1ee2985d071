import Foundation
import HTTP
import TestSupport
import XCTest

/// Two `photoscroll serve` replicas on one PostgreSQL database and one photos folder: a page
/// following B's live stream hears of every kind of change made through A (or on disk), as a
/// page of A's would: a photo added, moved, deleted to the trash and restored, an album made and
/// filled, a favourite marked.
final class ReplicaLiveViewsTests: XCTestCase {
    private static let json: HTTPHeaders = ["Content-Type": "application/json"]
    /// A change reaches the other replica within a second or so; the rest is for a loaded machine.
    private static let reaches = 15.0

    private func send(_ server: ServerProcess, _ method: HTTPMethod, _ target: String, _ body: Any) throws -> HTTPClientResponse {
        try server.request(target, method: method, headers: Self.json, body: [UInt8](try JSONSerialization.data(withJSONObject: body)), timeout: 30)
    }

    /// The data of every `name` event the stream got so far.
    private func events(_ name: String, on stream: EventStreamReader) -> [String] {
        stream.text.components(separatedBy: "\n\n").compactMap { frame in
            guard frame.hasPrefix("event: \(name)\n") else { return nil }
            return frame.split(separator: "\n").first { $0.hasPrefix("data: ") }.map { String($0.dropFirst(6)) }
        }
    }

    private func hears(_ stream: EventStreamReader, _ name: String, _ what: String, _ cluster: ReplicaCluster,
                       line: UInt = #line, where matches: @escaping (String) -> Bool) {
        XCTAssertTrue(stream.read(timeout: Self.reaches) { _ in self.events(name, on: stream).contains(where: matches) },
                      "B's stream hears \(what): \(stream.text)\n\(cluster.logs)", line: line)
    }

    func testEveryKindOfChangeMadeOnOneReplicaReachesTheOthersStream() throws {
        let cluster = try ReplicaCluster(makePhotos: ReplicaCluster.smallPhotos(3))
        defer { cluster.tearDown() }
        try cluster.start(together: true)
        for server in cluster.replicas {
            XCTAssertTrue(eventually(timeout: 30) {
                ((try? server.request("/photos"))?.object["photos"] as? [Any])?.count == 3
            }, "\(server.name) lists 3 photos\n\(cluster.logs)")
        }
        let (a, b) = (cluster.a, cluster.b)
        let onB = try openEventStream(port: b.port, "/photos/events")
        defer { onB.close() }
        XCTAssertEqual(onB.head.status, 200)
        XCTAssertTrue(onB.read(timeout: 30) { $0.contains("event: hello") })

        // A photo copied into the folder (whichever replica scans it).
        try ReplicaCluster.makePhoto(at: cluster.photosDirectory.appendingPathComponent("arrived.jpg").path, width: 300, height: 200)
        hears(onB, "photos", "the photo added", cluster) { $0.contains("\"title\":\"arrived\"") && $0.hasPrefix("{\"added\":[{") }

        // An album made and given a photo on A.
        let made = try send(a, .POST, "/albums", ["title": "Made on A"])
        XCTAssertEqual(made.status, 201, made.text)
        let album = try XCTUnwrap(made.object["id"] as? Int)
        hears(onB, "albums", "the album made", cluster) { $0 == "{\"ids\":[\(album)]}" }
        XCTAssertEqual(try send(a, .POST, "/albums/\(album)/photos", ["ids": [1]]).status, 200)
        XCTAssertTrue(onB.read(timeout: Self.reaches) { _ in self.events("albums", on: onB).count >= 2 }, "photos put into it: \(onB.text)")

        // A favourite marked on A.
        XCTAssertEqual(try a.request("/favourites/2", method: .PUT).status, 204)
        hears(onB, "favourites", "the favourite", cluster) { $0 == "{\"ids\":[2]}" }

        // A photo moved to another folder on A: the same id, changed.
        XCTAssertEqual(try send(a, .POST, "/photos/move", ["ids": [3], "folder": "Elsewhere"]).status, 200)
        hears(onB, "photos", "the move", cluster) { $0.contains("\"changed\":[{\"id\":3,") }

        // Deleted to the trash on A, and restored.
        let trashed = try send(a, .POST, "/photos/trash", ["ids": [2]])
        XCTAssertEqual(trashed.status, 200, trashed.text)
        hears(onB, "photos", "the photo gone", cluster) { $0.contains("\"removed\":[2]") }
        hears(onB, "trash", "the trash changed", cluster) { $0 == "{}" }
        let trashEvents = events("trash", on: onB).count
        XCTAssertEqual(try send(a, .POST, "/trash/restore", ["batch": try XCTUnwrap(trashed.object["batch"] as? String)]).status, 200)
        hears(onB, "photos", "the photo back", cluster) { $0.contains("{\"id\":2,") && $0.hasPrefix("{\"added\":[{") }
        XCTAssertTrue(onB.read(timeout: Self.reaches) { _ in self.events("trash", on: onB).count > trashEvents }, "restored: \(onB.text)")
    }
}
