import Access
import Foundation
import HTTP
import Library
import SQL
import SQLTesting
import Synchronization
import TestSupport
import XCTest
@testable import App

/// The real binary: a backup taken while 16 clients post comments and 4 upload photos, then
/// restored; and a library moved from SQLite to PostgreSQL (two replicas) and back, served with
/// the same answers after each move.
final class BackupLiveTests: XCTestCase {
    struct Run {
        let status: Int32
        let output: String
        let errors: String
    }

    static func photoscroll(_ arguments: [String], in directory: URL) throws -> Run {
        let process = Process()
        process.executableURL = try CommentDurabilityTests.photoscrollBinary()
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("PHOTOSCROLL_") }
        let stdout = Pipe(), stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        let errors = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, output: String(decoding: output, as: UTF8.self), errors: String(decoding: errors, as: UTF8.self))
    }

    static func serve(_ name: String, data: String, photos: URL, database: PostgresURL? = nil, in directory: URL) throws -> ServerProcess {
        // No rate limit: the writers post as fast as the server acknowledges.
        var environment = ["PHOTOSCROLL_LOG_LEVEL": "warning", "PHOTOSCROLL_COMMENTS_PER_MINUTE": "0"]
        if let database { environment["PHOTOSCROLL_DATABASE"] = database.description }
        return try ServerProcess(name: name, arguments: ["--data", data, "--photos", photos.path], environment: environment, directory: directory)
    }

    static func comment(_ server: ServerProcess, _ text: String) throws -> Int? {
        let posted = try server.request("/photos/1/comments", method: .POST, headers: ["Content-Type": "application/json"],
                                        body: Array("{\"text\":\"\(text)\"}".utf8))
        guard posted.status == 201 else { return nil }
        return (try JSONSerialization.jsonObject(with: Data(posted.body)) as? [String: Any])?["id"] as? Int
    }

    func testEveryCommentAcknowledgedBeforeTheBackupStartedIsInIt() throws {
        try backUpWhileCommentsArePosted(database: nil)
    }

    func testOnPostgresTooInOneRepeatableReadSnapshot() throws {
        if let reason = PostgresCluster.unavailableReason { throw XCTSkip(reason) }
        let cluster = try PostgresCluster.shared()
        let url = try cluster.createDatabase()
        defer { try? cluster.dropDatabase(url) }
        try backUpWhileCommentsArePosted(database: url)
    }

    func backUpWhileCommentsArePosted(database: PostgresURL?) throws {
        let folder = BackupFixture.scratchFolder("backup-live")
        defer { try? FileManager.default.removeItem(at: folder) }
        let photos = folder.appendingPathComponent("photos"), data = folder.appendingPathComponent("data").path
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        try ReplicaCluster.makePhoto(at: photos.appendingPathComponent("one.jpg").path, width: 64, height: 48)
        let server = try Self.serve("writes", data: data, photos: photos, database: database, in: folder)
        defer { server.stop() }
        XCTAssertTrue(try eventually(timeout: 30) { try server.request("/photos/1").status == 200 }, server.logTail)

        // Photos for the uploaders, each its own bytes (the same bytes would be stored once).
        let uploads = try (0..<40).map { try UploadFixtures.jpeg(width: 48, height: 32, seed: 100 + $0) }
        let acknowledged = Mutex<[Int]>([])
        let uploaded = Mutex<[Int]>([])
        let refusals = Mutex<[String]>([])
        let stop = Atomic<Bool>(false)
        let writers = DispatchGroup()
        // A thread each: twenty blocking clients are more than the global queue runs at once.
        func client(_ body: @escaping @Sendable () -> Void) {
            writers.enter()
            Thread.detachNewThread { body(); writers.leave() }
        }
        for writer in 0..<16 {
            client {
                var n = 0
                while !stop.load(ordering: .relaxed) {
                    n += 1
                    if let id = try? Self.comment(server, "writer \(writer) comment \(n)") { acknowledged.withLock { $0.append(id) } }
                }
            }
        }
        for uploader in 0..<4 {
            client {
                for n in stride(from: uploader, to: uploads.count, by: 4) where !stop.load(ordering: .relaxed) {
                    do {
                        if let id = try Self.upload(server, uploads[n], name: "upload-\(n).jpg") { uploaded.withLock { $0.append(id) } }
                    } catch { refusals.withLock { $0.append("\(error)") } }
                }
            }
        }
        XCTAssertTrue(eventually(timeout: 30) { acknowledged.withLock { $0.count } >= 40 && uploaded.withLock { $0.count } >= 4 },
                      "\(acknowledged.withLock { $0.count }) comments, \(uploaded.withLock { $0.count }) uploads acknowledged; \(refusals.withLock { $0.prefix(3) })\n\(server.logTail)")
        let before = acknowledged.withLock { $0 }, uploadedBefore = uploaded.withLock { $0 }
        let file = folder.appendingPathComponent("live.psbackup").path
        let backup = try Self.photoscroll(["backup", "--out", file, "--data", data, "--photos", photos.path]
                                          + (database.map { ["--database", $0.description] } ?? []), in: folder)
        XCTAssertTrue(eventually { acknowledged.withLock { $0.count } > before.count + 5 }, "comments went on being posted")
        stop.store(true, ordering: .relaxed)
        writers.wait()
        XCTAssertEqual(backup.status, 0, backup.errors)
        XCTAssertTrue(backup.output.hasPrefix("backed up "), backup.output)

        let snapshot = try BackupFile.decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: file))))
        let saved = try Self.ids(in: try XCTUnwrap(snapshot.table("comments")))
        XCTAssertTrue(Set(before).isSubset(of: saved), "missing: \(Set(before).subtracting(saved).sorted())")
        // On SQLite one writer commits in id order, so a snapshot holds every id up to its largest.
        if database == nil { XCTAssertEqual(saved, Set(1...(saved.max() ?? 0))) }
        XCTAssertTrue(Set(uploadedBefore + [1]).isSubset(of: try Self.ids(in: try XCTUnwrap(snapshot.table("photos")))))

        // Restored into an empty target of the same kind, every comment and upload acknowledged
        // before the backup began is there, counted in the restored database itself.
        let restoredData = folder.appendingPathComponent("restored").path
        var target: PostgresURL?
        if database != nil { target = try PostgresCluster.shared().createDatabase() }
        defer { if let target { try? PostgresCluster.shared().dropDatabase(target) } }
        let restore = try Self.photoscroll(["restore", file, "--data", restoredData] + (target.map { ["--database", $0.description] } ?? []),
                                           in: folder)
        XCTAssertEqual(restore.status, 0, restore.errors)
        let comments = try SQLDatabase(target.map { .postgres($0) } ?? .sqlite(path: restoredData + "/comments.sqlite"))
        defer { comments.close() }
        let catalog = target == nil ? try SQLDatabase(.sqlite(path: restoredData + "/catalog.sqlite")) : comments
        defer { if target == nil { catalog.close() } }
        let restoredComments = Set(try comments.query("SELECT id FROM comments").map { try $0.decode(0, as: Int.self) })
        XCTAssertEqual(restoredComments, saved, "the restore holds what the backup held")
        XCTAssertTrue(Set(before).isSubset(of: restoredComments), "\(before.count) comments acknowledged before the backup")
        let restoredPhotos = Set(try catalog.query("SELECT id FROM photos").map { try $0.decode(0, as: Int.self) })
        XCTAssertTrue(Set(uploadedBefore).isSubset(of: restoredPhotos),
                      "uploads acknowledged before the backup: missing \(Set(uploadedBefore).subtracting(restoredPhotos).sorted())")
    }

    static func ids(in table: BackupTable) throws -> Set<Int> {
        let idColumn = try XCTUnwrap(table.columns.firstIndex(of: "id"))
        return Set(table.rows.map { row -> Int in if case .integer(let id) = row[idColumn] { return Int(id) } else { return -1 } })
    }

    /// One photo through the plain form upload; its new id, or nil when it was not taken.
    static func upload(_ server: ServerProcess, _ photo: [UInt8], name: String) throws -> Int? {
        var body = Array("--XyZ\r\nContent-Disposition: form-data; name=\"file\"; filename=\"\(name)\"\r\nContent-Type: image/jpeg\r\n\r\n".utf8)
        body += photo + Array("\r\n--XyZ--\r\n".utf8)
        let posted = try server.request("/uploads/form", method: .POST, headers: ["Content-Type": "multipart/form-data; boundary=XyZ"], body: body)
        guard posted.status == 201 else { throw HTTPClientError("upload: \(posted.status) \(posted.text)") }
        let object = try JSONSerialization.jsonObject(with: Data(posted.body)) as? [String: Any]
        return ((object?["photos"] as? [[String: Any]])?.first)?["id"] as? Int
    }

    /// What a visitor sees: the photos' ids and paths, photo 1's comments, the albums, photo 1
    /// through the share link, the favourites, the folders, and the ids an album's link shows.
    static func answers(_ server: ServerProcess, token: String, albumToken: String) throws -> [String] {
        let photos = try server.request("/photos")
        let list = (try JSONSerialization.jsonObject(with: Data(photos.body)) as? [String: Any])?["photos"] as? [[String: Any]] ?? []
        let shared = try server.request("/s/\(token)/photos/1")
        return [String(photos.status), list.map { "\($0["id"] ?? "") \($0["title"] ?? "") \($0["version"] ?? "") \($0["commentCount"] ?? "")" }.joined(separator: ", "),
                try server.request("/photos/1/comments").text, try server.request("/albums").text,
                String(shared.status), String(try server.request("/s/not-\(token)/photos/1").status), try server.request("/favourites").text,
                try server.request("/folders").text, ids(try server.request("/s/\(albumToken)/photos"))]
    }

    static func ids(_ page: HTTPClientResponse) -> String {
        let list = (try? JSONSerialization.jsonObject(with: Data(page.body)) as? [String: Any])?["photos"] as? [[String: Any]] ?? []
        return "\(page.status) " + list.map { "\($0["id"] ?? "")" }.joined(separator: ",")
    }

    func testALibraryMovedToPostgresAndBackServesTheSameAnswers() throws {
        if let reason = PostgresCluster.unavailableReason { throw XCTSkip(reason) }
        let cluster = try PostgresCluster.shared()
        let url = try cluster.createDatabase()
        defer { try? cluster.dropDatabase(url) }
        let folder = BackupFixture.scratchFolder("backup-move")
        defer { try? FileManager.default.removeItem(at: folder) }
        let photos = folder.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: photos.appendingPathComponent("trip"), withIntermediateDirectories: true)
        try ReplicaCluster.makePhoto(at: photos.appendingPathComponent("one.jpg").path, width: 64, height: 48)
        try ReplicaCluster.makePhoto(at: photos.appendingPathComponent("trip/two.jpg").path, width: 48, height: 64)
        let one = folder.appendingPathComponent("one").path, two = folder.appendingPathComponent("two").path
        let three = folder.appendingPathComponent("three").path

        // On SQLite: two photos, comments, a share link made by an account.
        let first = try Self.serve("sqlite", data: one, photos: photos, in: folder)
        XCTAssertTrue(try eventually(timeout: 30) { try first.request("/photos/2").status == 200 }, first.logTail)
        XCTAssertNotNil(try Self.comment(first, "before the move"))
        XCTAssertNotNil(try Self.comment(first, "and another"))
        let access = try AccessStore(database: SQLDatabase(.sqlite(path: one + "/comments.sqlite")))
        let ana = try access.addUser(name: "ana", password: "correct horse battery", role: .owner)
        let token = try access.createShare(ShareRequest(target: .photo(1), expiresAt: nil), by: ana).token
        let collection = try PhotoLibrary.openCollections(database: access.database)
        try collection.setFavourite([2], true, now: 1_765_000_000)
        let picks = try collection.createAlbum(title: "Picks", now: 1_765_000_000)
        _ = try collection.addPhotos([2], to: picks.id, now: 1_765_000_000)
        let albumToken = try access.createShare(ShareRequest(target: .album(picks.id), expiresAt: nil), by: ana).token
        access.database.close()
        let expected = try Self.answers(first, token: token, albumToken: albumToken)
        XCTAssertTrue(expected[3].contains("\"title\":\"Picks\"") && expected[3].contains("\"count\":1"), expected[3])
        XCTAssertTrue(expected[7].contains("\"title\":\"trip\""), expected[7])
        XCTAssertEqual(expected[8], "200 2", "the album's link shows its one photo")
        XCTAssertEqual(expected[4], "200", "the share link opens photo 1")
        XCTAssertEqual(expected[5], "404")
        XCTAssertTrue(expected[6].contains("2"), "photo 2 is a favourite: \(expected[6])")
        XCTAssertTrue(expected[1].hasPrefix("1 one ") && expected[1].contains(" 2, 2 two "), expected[1])
        XCTAssertTrue(expected[2].contains("before the move"), expected[2])
        let file = folder.appendingPathComponent("one.psbackup").path
        let backup = try Self.photoscroll(["backup", "--out", file, "--data", one], in: folder)
        XCTAssertEqual(backup.status, 0, backup.errors)
        first.stop()

        // Into PostgreSQL: a restore, then a server on it.
        let restore = try Self.photoscroll(["restore", file, "--data", two, "--database", url.description], in: folder)
        XCTAssertEqual(restore.status, 0, restore.errors)
        let again = try Self.photoscroll(["restore", file, "--data", two, "--database", url.description], in: folder)
        XCTAssertEqual(again.status, 1, "a second restore finds the target full")
        XCTAssertTrue(again.errors.contains("not empty") && again.errors.contains("photos (2 rows)"), again.errors)
        let second = try Self.serve("postgres", data: two, photos: photos, database: url, in: folder)
        XCTAssertTrue(try eventually(timeout: 30) { try second.request("/photos/2").status == 200 }, second.logTail)
        XCTAssertEqual(try Self.answers(second, token: token, albumToken: albumToken), expected)
        // A second replica on the same database answers the same.
        let replica = try Self.serve("replica", data: folder.appendingPathComponent("two-b").path, photos: photos, database: url, in: folder)
        XCTAssertTrue(try eventually(timeout: 30) { try replica.request("/photos/2").status == 200 }, replica.logTail)
        XCTAssertEqual(try Self.answers(replica, token: token, albumToken: albumToken), expected)
        XCTAssertNotNil(try Self.comment(second, "posted on PostgreSQL"), "a new comment takes a new id")
        let withNew = try Self.answers(second, token: token, albumToken: albumToken)
        XCTAssertTrue(try eventually { try Self.answers(replica, token: token, albumToken: albumToken) == withNew }, "the other replica sees the new comment")
        replica.stop()
        second.stop()

        // And back to SQLite in one command.
        let moved = try Self.photoscroll(["migrate", "--to", "sqlite", "--data", three, "--database", url.description], in: folder)
        XCTAssertEqual(moved.status, 0, moved.errors)
        let third = try Self.serve("back", data: three, photos: photos, in: folder)
        defer { third.stop() }
        XCTAssertTrue(try eventually(timeout: 30) { try third.request("/photos/2").status == 200 }, third.logTail)
        XCTAssertEqual(try Self.answers(third, token: token, albumToken: albumToken), withNew)
    }
}
