import Access
import Foundation
@testable import App
@testable import HTTP
@testable import Library
import Observability
import Search
import TestSupport
import XCTest

/// `GET /search` and `/s/:token/search` in-process over the access fixture's library, indexed
/// (`searchFixture`).
final class SearchRouteTests: XCTestCase {
    func titles(_ answer: TestResponse) -> [String] {
        ((answer.object["photos"] as? [[String: Any]]) ?? []).compactMap { $0["title"] as? String }
    }

    func testOwnerFindsByFolderDateAndName() throws {
        let f = try searchFixture()
        defer { f.close() }
        let owner: HTTPHeaders = ["Cookie": try f.signIn("ana", AccessFixture.ownerPassword)]
        let trip = f.request(.GET, "/search?q=TRI", headers: owner)
        XCTAssertEqual(trip.status, .ok, trip.text)
        XCTAssertEqual(trip.object["query"] as? String, "TRI")
        XCTAssertEqual(trip.object["total"] as? Int, 2)
        XCTAssertEqual(Set(titles(trip)), ["a1", "a2"])
        XCTAssertEqual(f.request(.GET, "/search?q=may+2024", headers: owner).object["total"] as? Int, 4)
        XCTAssertEqual(f.request(.GET, "/search?q=2024-05-01%20b1", headers: owner).object["total"] as? Int, 1)
        let none = f.request(.GET, "/search?q=2023", headers: owner)
        XCTAssertEqual(none.status, .ok)
        XCTAssertEqual(none.object["total"] as? Int, 0)
        XCTAssertEqual(f.request(.GET, "/search?q=london", headers: owner).object["total"] as? Int, 0,
                       "the library does not show where photos were taken, so places are not asked")
        XCTAssertEqual(f.request(.GET, "/search?q=london").status, .unauthorized, "a private library")
    }

    func testPagesFollowNext() throws {
        let f = try searchFixture()
        defer { f.close() }
        let owner: HTTPHeaders = ["Cookie": try f.signIn("ana", AccessFixture.ownerPassword)]
        var target: String? = "/search?q=s%C3%A3o%202024&limit=3"
        XCTAssertEqual(f.request(.GET, target!, headers: owner).object["total"] as? Int, 0, "sao matches nothing")
        target = "/search?q=jpg&limit=3"
        var seen: [String] = []
        while let next = target {
            let page = f.request(.GET, next, headers: owner)
            XCTAssertEqual(page.status, .ok, page.text)
            seen += titles(page)
            target = page.object["next"] as? String
        }
        XCTAssertEqual(seen.sorted(), ["a1", "a2", "b1", "r1"])
    }

    func testRefusals() throws {
        let f = try searchFixture()
        defer { f.close() }
        let owner: HTTPHeaders = ["Cookie": try f.signIn("ana", AccessFixture.ownerPassword)]
        for query in [String(repeating: "a", count: 201), (1...21).map { "w\($0)" }.joined(separator: "+"), "a%00b", "a%ED%A0%80", "%zz"] {
            let answer = f.request(.GET, "/search?q=\(query)", headers: owner)
            XCTAssertEqual(answer.status, .badRequest, query)
            XCTAssertEqual(answer.headers["Content-Type"], "application/problem+json", query)
        }
        XCTAssertEqual(f.request(.GET, "/search?q=a&limit=0", headers: owner).status, .badRequest)
    }

    func testALinkSeesItsPhotosAndWhatItAllows() throws {
        let f = try searchFixture(showLocation: true)
        defer { f.close() }
        let owner: HTTPHeaders = ["Cookie": try f.signIn("ana", AccessFixture.ownerPassword)]
        XCTAssertEqual(f.request(.GET, "/search?q=lond+england", headers: owner).object["total"] as? Int, 4, "places, when shown")
        _ = try f.application.comments.store.add(photoID: f.photos["a1"]!, author: "ana", text: "Zebras at dusk", client: "test", verified: true)
        XCTAssertTrue(eventually { self.titles(f.request(.GET, "/search?q=zebra", headers: owner)) == ["a1"] }, "a new comment is indexed")

        let plain = try f.share(ShareRequest(target: .folder(f.folders["trip"]!), expiresAt: nil))
        let answer = f.request(.GET, "/s/\(plain.token)/search?q=2024")
        XCTAssertEqual(answer.status, .ok, answer.text)
        XCTAssertEqual(Set(titles(answer)), ["a1", "a2"], "only the link's photos")
        XCTAssertFalse(answer.text.contains("\"/photos/"), "paths are under the link")
        XCTAssertEqual(f.request(.GET, "/s/\(plain.token)/search?q=london").object["total"] as? Int, 0, "no location on this link")
        let offered = f.request(.GET, "/search/suggest?q=lon", headers: owner).object["suggestions"] as? [[String: Any]]
        XCTAssertEqual(offered?.first?["kind"] as? String, "place")
        XCTAssertEqual(offered?.first?["count"] as? Int, 4)
        XCTAssertEqual((f.request(.GET, "/s/\(plain.token)/search/suggest?q=lon").object["suggestions"] as? [Any])?.count, 0,
                       "no places offered on a link without location")
        XCTAssertEqual(titles(f.request(.GET, "/s/\(plain.token)/search?q=zebra")), ["a1"])

        let located = try f.share(ShareRequest(target: .folder(f.folders["trip"]!), expiresAt: nil, comments: false, location: true))
        XCTAssertEqual(f.request(.GET, "/s/\(located.token)/search?q=london").object["total"] as? Int, 2)
        XCTAssertEqual(f.request(.GET, "/s/\(located.token)/search?q=zebra").object["total"] as? Int, 0, "comments hidden")
    }

    func testSuggestions() throws {
        let f = try searchFixture()
        defer { f.close() }
        let owner: HTTPHeaders = ["Cookie": try f.signIn("ana", AccessFixture.ownerPassword)]
        func suggestions(_ target: String, _ headers: HTTPHeaders = [:]) -> [[String: Any]] {
            (f.request(.GET, target, headers: headers).object["suggestions"] as? [[String: Any]]) ?? []
        }
        let trip = suggestions("/search/suggest?q=TR", owner)
        XCTAssertEqual(trip.map { $0["text"] as? String }, ["trip"])
        XCTAssertEqual(trip.first?["kind"] as? String, "folder")
        XCTAssertEqual(trip.first?["count"] as? Int, 2)
        let dates = suggestions("/search/suggest?q=2024", owner)
        XCTAssertEqual(dates.map { $0["text"] as? String }, ["2024", "May 2024"])
        XCTAssertEqual(dates.map { $0["count"] as? Int }, [4, 4])
        XCTAssertEqual(dates.last?["query"] as? String, "may 2024")
        XCTAssertEqual(suggestions("/search/suggest?q=", owner).count, 0)
        XCTAssertEqual(f.request(.GET, "/search/suggest?q=a%00", headers: owner).status, .badRequest)

        let link = try f.share(ShareRequest(target: .folder(f.folders["trip"]!), expiresAt: nil))
        XCTAssertEqual(suggestions("/s/\(link.token)/search/suggest?q=2024").map { $0["count"] as? Int }, [2, 2], "the link's photos only")
        XCTAssertEqual(suggestions("/s/\(link.token)/search/suggest?q=ho").count, 0, "no folder outside the link")
    }

    func testTheIndexFollowsTheCatalog() throws {
        let f = try searchFixture()
        defer { f.close() }
        let owner: HTTPHeaders = ["Cookie": try f.signIn("ana", AccessFixture.ownerPassword)]
        let path = f.root + "/photos/home/Quokka.jpg"
        FileManager.default.createFile(atPath: path, contents: Data(AccessFixture.commentJPEG("\n300x200\nquokka\n")))
        f.application.photos.library.refresh()
        XCTAssertTrue(eventually { self.titles(f.request(.GET, "/search?q=quok", headers: owner)) == ["Quokka"] }, "a new file is indexed")
        try FileManager.default.removeItem(atPath: path)
        f.application.photos.library.refresh()
        XCTAssertTrue(eventually { f.request(.GET, "/search?q=quok", headers: owner).object["total"] as? Int == 0 }, "a removed one is not")
    }

    func testAnAlbumsTitleFindsItsPhotosFromTheMomentItChanges() throws {
        let f = try searchFixture()
        defer { f.close() }
        let owner: HTTPHeaders = ["Cookie": try f.signIn("ana", AccessFixture.ownerPassword)]
        let found = { (query: String) in Set(self.titles(f.request(.GET, "/search?q=\(query)", headers: owner))) }
        var json = owner
        json.add("Content-Type", "application/json")
        let send = { (method: HTTPMethod, path: String, body: String) in f.request(method, path, headers: json, body: Array(body.utf8)) }
        XCTAssertEqual(found("honeym"), [])
        let made = send(.POST, "/albums", #"{"title":"Honeymoon"}"#)
        XCTAssertEqual(made.status, .created, made.text)
        let album = try XCTUnwrap(made.object["id"] as? Int)
        let added = send(.POST, "/albums/\(album)/photos", #"{"ids":[\#(f.photos["a1"]!),\#(f.photos["b1"]!)]}"#)
        XCTAssertEqual(added.status, .ok, added.text)
        XCTAssertTrue(eventually { found("honeym") == ["a1", "b1"] }, "photos added to an album are found by its title")
        XCTAssertEqual(send(.PATCH, "/albums/\(album)", #"{"title":"Lune de miel"}"#).status, .ok)
        XCTAssertTrue(eventually { found("honeym").isEmpty && found("lune+miel") == ["a1", "b1"] }, "by its new title once renamed")
        let suggested = f.request(.GET, "/search/suggest?q=lun", headers: owner).object["suggestions"] as? [[String: Any]]
        XCTAssertEqual(suggested?.first { $0["kind"] as? String == "album" }?["text"] as? String, "Lune de miel", "suggested as one types")
        XCTAssertEqual(suggested?.first { $0["kind"] as? String == "album" }?["count"] as? Int, 2)
        let link = try f.share(ShareRequest(target: .folder(f.folders["trip"]!), expiresAt: nil))
        let linkSuggested = f.request(.GET, "/s/\(link.token)/search/suggest?q=lun").object["suggestions"] as? [[String: Any]]
        XCTAssertEqual(linkSuggested?.filter { $0["kind"] as? String == "album" }.count, 0, "nor suggested to it")
        XCTAssertEqual(titles(f.request(.GET, "/s/\(link.token)/search?q=a1")), ["a1"], "the link's photo, by its name")
        XCTAssertEqual(f.request(.GET, "/s/\(link.token)/search?q=lune").object["total"] as? Int, 0,
                       "an album's title is its owner's: a link's holder never finds a photo by it")
        let removed = send(.DELETE, "/albums/\(album)/photos", #"{"ids":[\#(f.photos["b1"]!)]}"#)
        XCTAssertEqual(removed.status, .ok, removed.text)
        XCTAssertTrue(eventually { found("lune") == ["a1"] }, "a photo taken out is not found by it")
        XCTAssertEqual(f.request(.DELETE, "/albums/\(album)", headers: owner).status, .noContent)
        XCTAssertTrue(eventually { found("lune").isEmpty }, "nor is any once the album is deleted")
    }

    func testAnswersArePartialUntilTheIndexIsFilledAndReadyzSaysHowFar() throws {
        let f = try AccessFixture(ready: true)
        defer { f.close() }
        let owner: HTTPHeaders = ["Cookie": try f.signIn("ana", AccessFixture.ownerPassword)]
        let early = f.request(.GET, "/search?q=trip", headers: owner)
        XCTAssertEqual(early.status, .ok, early.text)
        XCTAssertEqual(early.object["partial"] as? Bool, true, "the indexer has not filled the index yet")
        XCTAssertEqual(early.object["total"] as? Int, 0)
        let filling = f.request(.GET, "/readyz")
        XCTAssertEqual(filling.status, .ok, filling.text)
        XCTAssertTrue((filling.object["detail"] as? String)?.contains("Search index") == true, filling.text)
        f.application.search.start(commentStore: f.application.comments.store)
        f.application.search.waitUntilIdle()
        let filled = f.request(.GET, "/search?q=trip", headers: owner)
        XCTAssertEqual(filled.object["partial"] as? Bool, false)
        XCTAssertEqual(filled.object["total"] as? Int, 2)
        XCTAssertFalse(f.request(.GET, "/readyz").text.contains("Search index"))
        XCTAssertTrue(FileManager.default.fileExists(atPath: f.root + "/data/search.sqlite"), "the index has a file of its own")
    }

    func testWithoutPlaceTablesItSearchesAndSaysSoOnce() throws {
        let sink = MemoryLogSink()
        let f = try AccessFixture(ready: true, logger: Logger(label: "test", sink: sink))
        defer { f.close() }
        f.application.search.start(commentStore: f.application.comments.store)
        f.application.search.waitUntilIdle()
        XCTAssertEqual(sink.all.filter { $0.message.contains("without place names") }.count, 1)
        let owner: HTTPHeaders = ["Cookie": try f.signIn("ana", AccessFixture.ownerPassword)]
        XCTAssertEqual(f.request(.GET, "/search?q=trip", headers: owner).object["total"] as? Int, 2)
    }
}
