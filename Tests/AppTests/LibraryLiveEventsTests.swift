import Access
import Foundation
@testable import App
import SQLTesting
import XCTest

/// What the live stream (`/photos/events`) says of albums, favourites and the trash, and to whom:
/// albums by id to whoever sees the library, favourites and the trash only to whoever may change
/// it, a share link's stream only a `reset` when its own album changes (never an album's id or
/// title), and another replica's changes through the database. Streams on a live socket.
final class LibraryLiveEventsTests: XCTestCase {
    private var fixtures: [AccessFixture] = []
    private var probes: [StreamProbe] = []

    override func tearDown() {
        for probe in probes { probe.stop() }
        for fixture in fixtures {
            fixture.application.collection.stopHearing()
            fixture.close()
        }
    }

    private func fixture(_ configure: @escaping (inout Configuration) -> Void = { _ in }, users: Bool = true) throws -> (AccessFixture, StreamProbe) {
        // Every photo built first: no change of the ingest's comes on the streams meanwhile.
        let f = try AccessFixture(ready: true, users: users, configure: configure)
        fixtures.append(f)
        try f.application.collection.startHearing()
        let probe = try StreamProbe(f)
        probes.append(probe)
        return (f, probe)
    }

    /// The data of every `name` event the stream got so far.
    private func events(_ name: String, on stream: EventStreamReader) -> [String] {
        stream.text.components(separatedBy: "\n\n").compactMap { frame in
            guard frame.hasPrefix("event: \(name)\n") else { return nil }
            return frame.split(separator: "\n").first { $0.hasPrefix("data: ") }.map { String($0.dropFirst(6)) }
        }
    }

    private func waitFor(_ name: String, _ data: String, on stream: EventStreamReader, line: UInt = #line) {
        XCTAssertTrue(stream.read(timeout: StreamProbe.ends) { _ in self.events(name, on: stream).contains(data) },
                      "\(name) \(data) on the stream: \(stream.text)", line: line)
    }

    /// Waits until a `name` event names `id` among its ids.
    private func names(_ name: String, _ id: Int, on stream: EventStreamReader, line: UInt = #line) {
        let named = {
            self.events(name, on: stream).contains { data in
                let ids = (try? JSONSerialization.jsonObject(with: Data(data.utf8)) as? [String: Any])?["ids"] as? [Int]
                return ids?.contains(id) ?? false
            }
        }
        XCTAssertTrue(stream.read(timeout: 30) { _ in named() }, "\(name) naming \(id) on the stream: \(stream.text)", line: line)
    }

    private func json(_ response: TestResponse) throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any], response.text)
    }

    func testAlbumsMadeRenamedFilledEmptiedAndDeletedAreSentByIdAlone() throws {
        let (f, probe) = try fixture()
        let owner = try f.signIn("ana", AccessFixture.ownerPassword)
        let stream = try probe.open("/photos/events", cookie: owner)

        let made = f.post("/albums", json: #"{"title":"Lisbon secrets"}"#, cookie: owner)
        XCTAssertEqual(made.status, .created, made.text)
        let id = try XCTUnwrap(try json(made)["id"] as? Int)
        waitFor("albums", "{\"ids\":[\(id)]}", on: stream)
        let count = { self.events("albums", on: stream).count }

        var before = count()
        XCTAssertEqual(f.request(.PATCH, "/albums/\(id)", headers: ["Cookie": owner, "Content-Type": "application/json"],
                                 body: Array(#"{"title":"Porto secrets"}"#.utf8)).status, .ok)
        XCTAssertTrue(stream.read(timeout: StreamProbe.ends) { _ in count() > before }, "the rename: \(stream.text)")
        before = count()
        XCTAssertEqual(f.post("/albums/\(id)/photos", json: "{\"ids\":[\(f.photos["a1"]!)]}", cookie: owner).status, .ok)
        XCTAssertTrue(stream.read(timeout: StreamProbe.ends) { _ in count() > before }, "photos added: \(stream.text)")
        before = count()
        XCTAssertEqual(f.request(.DELETE, "/albums/\(id)/photos", headers: ["Cookie": owner, "Content-Type": "application/json"],
                                 body: Array("{\"ids\":[\(f.photos["a1"]!)]}".utf8)).status, .ok)
        XCTAssertTrue(stream.read(timeout: StreamProbe.ends) { _ in count() > before }, "photos taken out: \(stream.text)")
        before = count()
        XCTAssertEqual(f.request(.DELETE, "/albums/\(id)", headers: ["Cookie": owner]).status, .noContent)
        XCTAssertTrue(stream.read(timeout: StreamProbe.ends) { _ in count() > before }, "the deletion: \(stream.text)")

        XCTAssertEqual(Set(events("albums", on: stream)), ["{\"ids\":[\(id)]}"], "each change names the album, and only it")
        XCTAssertFalse(stream.text.contains("secrets"), "no title on the stream: \(stream.text)")
        XCTAssertTrue(events("photos", on: stream).isEmpty, "no photo changed: \(stream.text)")
    }

    func testFavouritesAndTheTrashGoOnlyToWhoeverMayChangeTheLibrary() throws {
        let (f, probe) = try fixture { $0.access = "public" }
        let owner = try f.signIn("ana", AccessFixture.ownerPassword)
        let manager = try probe.open("/photos/events", cookie: owner)
        // Through a proxy, nobody is this machine: a visitor of the public library who may not change it.
        let visitor = try probe.open("/photos/events", headers: ["X-Forwarded-For": "203.0.113.9"])

        let a1 = f.photos["a1"]!, b1 = f.photos["b1"]!
        XCTAssertEqual(f.request(.PUT, "/favourites/\(a1)", headers: ["Cookie": owner]).status, .noContent)
        waitFor("favourites", "{\"ids\":[\(a1)]}", on: manager)
        XCTAssertEqual(f.request(.DELETE, "/favourites/\(a1)", headers: ["Cookie": owner]).status, .noContent)
        XCTAssertTrue(manager.read(timeout: StreamProbe.ends) { _ in self.events("favourites", on: manager).count == 2 }, manager.text)

        let trashed = f.post("/photos/trash", json: "{\"ids\":[\(b1)]}", cookie: owner)
        XCTAssertEqual(trashed.status, .ok, trashed.text)
        waitFor("trash", "{}", on: manager)
        // The photo left the library for everyone; the trash and the favourites are not the visitor's to read.
        XCTAssertTrue(visitor.read(timeout: StreamProbe.ends) { $0.contains("\"removed\":[\(b1)]") }, visitor.text)
        let batch = try XCTUnwrap(try json(trashed)["batch"] as? String)
        XCTAssertEqual(f.post("/trash/restore", json: "{\"batch\":\"\(batch)\"}", cookie: owner).status, .ok)
        XCTAssertTrue(manager.read(timeout: StreamProbe.ends) { _ in self.events("trash", on: manager).count == 2 }, "restored: \(manager.text)")
        XCTAssertTrue(visitor.read(timeout: StreamProbe.ends) { $0.contains("\"added\":[{\"id\":\(b1),") }, visitor.text)
        XCTAssertTrue(events("favourites", on: visitor).isEmpty && events("trash", on: visitor).isEmpty, visitor.text)
    }

    func testALinksStreamHearsOfItsOwnAlbumAsAResetAndOfNoOther() throws {
        let (f, probe) = try fixture()
        let owner = try f.signIn("ana", AccessFixture.ownerPassword)
        let picks = f.albums["picks"]!
        let link = try f.share(ShareRequest(target: .album(picks), expiresAt: nil))
        let shared = try probe.open("/s/\(link.token)/photos/events")
        let library = try probe.open("/photos/events", cookie: owner)

        // Another album made and filled: nothing for the link.
        let other = try XCTUnwrap(try json(f.post("/albums", json: #"{"title":"Hidden trip"}"#, cookie: owner))["id"] as? Int)
        XCTAssertEqual(f.post("/albums/\(other)/photos", json: "{\"ids\":[\(f.photos["r1"]!)]}", cookie: owner).status, .ok)
        waitFor("albums", "{\"ids\":[\(other)]}", on: library)
        // Its own album given a photo: fetch the list again, which now holds three.
        XCTAssertEqual(f.post("/albums/\(picks)/photos", json: "{\"ids\":[\(f.photos["a1"]!)]}", cookie: owner).status, .ok)
        waitFor("reset", "{\"total\":3}", on: shared)
        XCTAssertEqual(events("reset", on: shared), ["{\"total\":3}"], "one reset, for its own album alone: \(shared.text)")
        for word in ["albums", "favourites", "trash", "Hidden", "picks", "ids"] {
            XCTAssertFalse(shared.text.contains(word), "\(word) on the link's stream: \(shared.text)")
        }
    }

    func testAnAlbumOrAFavouriteChangedOnOneReplicaReachesTheOthersStream() throws {
        let database = try SQLTestDatabase.postgres()
        defer { database.remove() }
        let (a, probe) = try fixture { $0.database = database.postgresURL!.description }
        let (b, _) = try fixture({ $0.database = database.postgresURL!.description }, users: false)
        let owner = try b.signIn("ana", AccessFixture.ownerPassword)
        let onA = try probe.open("/photos/events", cookie: try a.signIn("ana", AccessFixture.ownerPassword))

        let made = b.post("/albums", json: #"{"title":"Made on B"}"#, cookie: owner)
        XCTAssertEqual(made.status, .created, made.text)
        let id = try XCTUnwrap(try json(made)["id"] as? Int)
        // Through the database's notifications: a second or so; the rest is for a loaded machine.
        // (B's own start, its album made, may come late and in the same batch.)
        names("albums", id, on: onA)
        XCTAssertEqual(b.request(.PUT, "/favourites/\(b.photos["a2"]!)", headers: ["Cookie": owner]).status, .noContent)
        names("favourites", b.photos["a2"]!, on: onA)
        // What A answers agrees with what its stream said.
        let albums = try json(a.request(.GET, "/albums", headers: ["Cookie": owner]))["albums"] as? [[String: Any]]
        XCTAssertTrue(albums?.contains { $0["id"] as? Int == id && $0["title"] as? String == "Made on B" } == true, "\(albums ?? [])")
    }
}
