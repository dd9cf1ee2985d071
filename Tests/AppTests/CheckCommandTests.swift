import Foundation
import HTTP
import SQL
import TestSupport
import XCTest
@testable import App

/// `photoscroll check` on a library whose pyramids were built by a server: a deleted tile, a
/// truncated tile, a photo removed behind the catalog's back and rows naming a photo that is
/// gone are each found, repaired with --repair, and a server serves the photos again.
final class CheckCommandTests: XCTestCase {
    func testCheckFindsDamageAndRepairsIt() throws {
        let folder = BackupFixture.scratchFolder("check")
        defer { try? FileManager.default.removeItem(at: folder) }
        let photos = folder.appendingPathComponent("photos"), data = folder.appendingPathComponent("data").path
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        for (index, name) in ["one.jpg", "two.jpg", "three.jpg"].enumerated() {
            try ReplicaCluster.makePhoto(at: photos.appendingPathComponent(name).path, width: 600 + index, height: 400)
        }
        var versions: [Int: String] = [:]
        do {
            let server = try BackupLiveTests.serve("build", data: data, photos: photos, in: folder)
            defer { server.stop() }
            XCTAssertTrue(try eventually(timeout: 60) {
                for id in 1...3 {
                    let answer = try server.request("/photos/\(id)")
                    guard answer.status == 200, let record = try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any],
                          record["status"] as? String == "ready" else { return false }
                    versions[id] = record["version"] as? String
                }
                return true
            }, server.logTail)
            XCTAssertEqual(try BackupLiveTests.photoscroll(["check", "--data", data, "--photos", photos.path], in: folder).status, 0,
                           "a sound library, checked beside its server")
        }
        let tiles = data + "/tiles"
        try FileManager.default.removeItem(atPath: "\(tiles)/\(try XCTUnwrap(versions[1]))/2/1_0.jpg")
        let truncated = "\(tiles)/\(try XCTUnwrap(versions[2]))/2/0_1.jpg"
        let bytes = try Data(contentsOf: URL(fileURLWithPath: truncated))
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: truncated))
        try FileManager.default.removeItem(at: photos.appendingPathComponent("three.jpg"))
        let comments = try SQLDatabase(.sqlite(path: data + "/comments.sqlite"))
        try comments.run("INSERT INTO comments (photo_id, author, text, created_at) VALUES (99, 'ana', 'under nothing', 1)")
        try comments.run("INSERT INTO shares (token, photo_id, created_by, created_at, download, comments, location) VALUES ('t', 99, 1, 1, 0, 1, 0)")
        // An album with a photo the catalog has and one it does not; a link to it, and one to an album that is gone.
        try comments.run("INSERT INTO collection_albums (id, title, position, created_at) VALUES (5, 'Kept', 0, 1)")
        try comments.run("INSERT INTO collection_album_photos (album_id, photo_id, position, added_at) VALUES (5, 1, 0, 1), (5, 99, 1, 1)")
        try comments.run("INSERT INTO shares (token, album_id, created_by, created_at, download, comments, location) VALUES ('a', 5, 1, 1, 0, 1, 0)")
        try comments.run("INSERT INTO shares (token, album_id, created_by, created_at, download, comments, location) VALUES ('g', 777, 1, 1, 0, 1, 0)")
        comments.close()

        let found = try BackupLiveTests.photoscroll(["check", "--data", data, "--photos", photos.path], in: folder)
        XCTAssertEqual(found.status, 1, found.errors)
        for expected in ["missing tile: photo 1 (one.jpg), tile 2/1/0", "bad tile: photo 2 (two.jpg), tile 2/0/1 does not decode",
                         "missing file: photo 3 (three.jpg)", "orphan comment: comment 1 is under photo 99",
                         "orphan share link: share link 1 opens photo 99", "orphan share link: share link 3 opens album 777",
                         "orphan album photo: album 5 holds photo 99", "found 7 things wrong"] {
            XCTAssertTrue(found.output.contains(expected), "\(expected)\n\(found.output)")
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: "\(tiles)/\(versions[2]!)"), "without --repair nothing is changed")

        let repaired = try BackupLiveTests.photoscroll(["check", "--repair", "--data", data, "--photos", photos.path], in: folder)
        XCTAssertEqual(repaired.status, 0, repaired.output + repaired.errors)
        XCTAssertTrue(repaired.output.contains("(repaired)"), repaired.output)
        let again = try BackupLiveTests.photoscroll(["check", "--data", data, "--photos", photos.path], in: folder)
        XCTAssertEqual(again.status, 0, again.output + again.errors)
        XCTAssertTrue(again.output.contains("checked 2 photos: nothing wrong"), again.output)
        let kept = try SQLDatabase(.sqlite(path: data + "/comments.sqlite"))
        XCTAssertEqual(try kept.query("SELECT token FROM shares").map { try $0.decode(0, as: String.self) }, ["a"], "the sound album's link stays")
        XCTAssertEqual(try kept.query("SELECT photo_id FROM collection_album_photos").map { try $0.decode(0, as: Int.self) }, [1])
        kept.close()

        // The server builds the removed pyramids again and serves their tiles.
        let server = try BackupLiveTests.serve("rebuilt", data: data, photos: photos, in: folder)
        defer { server.stop() }
        XCTAssertTrue(try eventually(timeout: 60) { try server.request("/photos/2/tiles/2/0/1.jpg?v=\(versions[2]!)").status == 200 }, server.logTail)
        XCTAssertTrue(try eventually(timeout: 60) { FileManager.default.fileExists(atPath: truncated) }, "the pyramid is built again")
        XCTAssertTrue(PhotoRendererCheck.readsBack(truncated))
    }
}
