import Access
import Foundation
@testable import App
import HTTP
import XCTest

/// Albums as collections through the API: made, renamed, ordered, given photos from any folder
/// and emptied without a file moving; shared, with only their photos behind the link; and
/// refused bad input as problem details.
final class AlbumRoutesTests: XCTestCase {
    private var f: AccessFixture!
    private var owner = ""

    override func setUpWithError() throws {
        f = try AccessFixture(ready: true)
        owner = try f.signIn("ana", AccessFixture.ownerPassword)
    }

    override func tearDown() {
        f?.close()
        f = nil
    }

    private func call(_ method: HTTPMethod, _ target: String, _ json: String? = nil) -> TestResponse {
        f.request(method, target, json: json, cookie: owner)
    }

    private func files() throws -> [String] {
        try FileManager.default.subpathsOfDirectory(atPath: f.root + "/photos").filter { $0.hasSuffix(".jpg") }.sorted()
    }

    private func titles(_ answer: TestResponse) -> [String] {
        (answer.object["photos"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String }
    }

    func testAnAlbumHoldsPhotosOfAnyFolderAndNoFileMoves() throws {
        let before = try files()
        let made = call(.POST, "/albums", #"{"title":"  Best of  "}"#)
        XCTAssertEqual(made.status, .created, made.text)
        let id = try XCTUnwrap(made.object["id"] as? Int)
        XCTAssertEqual(made.object["title"] as? String, "Best of", "trimmed")
        XCTAssertEqual(made.object["count"] as? Int, 0)
        XCTAssertTrue(made.object["cover"] is NSNull)
        XCTAssertEqual(made.headers["Location"], "/albums/\(id)")

        let (a1, b1, r1) = (f.photos["a1"]!, f.photos["b1"]!, f.photos["r1"]!)
        let added = call(.POST, "/albums/\(id)/photos", #"{"ids":[\#(a1),\#(b1),\#(r1)]}"#)
        XCTAssertEqual(added.status, .ok, added.text)
        XCTAssertEqual(added.object["count"] as? Int, 3)
        XCTAssertEqual(Set(titles(call(.GET, "/albums/\(id)"))), ["a1", "b1", "r1"], "photos of two folders and the root")
        XCTAssertEqual(try files(), before, "adding touches no file")
        // The same photo in a second album, and the fixture's "picks" keeps its own.
        let other = try XCTUnwrap(call(.POST, "/albums", #"{"title":"Other"}"#).object["id"] as? Int)
        XCTAssertEqual(call(.POST, "/albums/\(other)/photos", #"{"ids":[\#(a1)]}"#).object["count"] as? Int, 1)

        let removed = call(.DELETE, "/albums/\(id)/photos", #"{"ids":[\#(a1)]}"#)
        XCTAssertEqual(removed.status, .ok, removed.text)
        XCTAssertEqual(Set(titles(call(.GET, "/albums/\(id)"))), ["b1", "r1"])
        XCTAssertEqual(titles(call(.GET, "/albums/\(other)")), ["a1"], "removed from one album only")
        XCTAssertEqual(try files(), before, "removing touches no file")
        XCTAssertEqual(call(.GET, "/photos/\(a1)").status, .ok, "the photo is still in the library")

        // Rename, cover, order.
        let renamed = call(.PATCH, "/albums/\(id)", #"{"title":"Best","cover":\#(r1),"position":0}"#)
        XCTAssertEqual(renamed.status, .ok, renamed.text)
        XCTAssertEqual(renamed.object["title"] as? String, "Best")
        XCTAssertEqual((renamed.object["cover"] as? [String: Any])?["id"] as? Int, r1)
        let list = call(.GET, "/albums").object["albums"] as? [[String: Any]] ?? []
        XCTAssertEqual(list.map { $0["title"] as? String }, ["Best", "picks", "Other"], "the album moved to the front")
        XCTAssertEqual(list.map { $0["position"] as? Int }, [0, 1, 2])
        XCTAssertEqual(list.first?["link"] as? String, "/albums/\(id)")

        // Summary and manifest cover the album's photos only.
        let summary = call(.GET, "/albums/\(id)/summary")
        XCTAssertEqual(summary.object["total"] as? Int, 2, summary.text)
        let manifest = call(.GET, "/albums/\(id)/manifest.json")
        XCTAssertEqual(manifest.status, .ok, manifest.text)
        XCTAssertTrue(manifest.text.contains("/photos/\(b1)/canvas") && manifest.text.contains("/photos/\(r1)/canvas"))
        XCTAssertFalse(manifest.text.contains("/photos/\(a1)/canvas"), "a1 left the album")
        XCTAssertTrue(manifest.text.contains("http://photos.test/albums/\(id)/manifest.json"))

        // Deleting the album keeps its photos.
        XCTAssertEqual(call(.DELETE, "/albums/\(id)").status, .noContent)
        XCTAssertEqual(call(.GET, "/albums/\(id)").status, .notFound)
        XCTAssertEqual(call(.DELETE, "/albums/\(id)").status, .notFound)
        XCTAssertEqual(try files(), before)
        XCTAssertEqual(call(.GET, "/photos/\(b1)").status, .ok)
    }

    func testATrashedPhotoLeavesTheListUntilRestoredAndItsAlbumsWhenDeletedForGood() throws {
        let picks = f.albums["picks"]!, a2 = f.photos["a2"]!
        XCTAssertEqual(Set(titles(call(.GET, "/albums/\(picks)"))), ["a2", "b1"])
        let trashed = call(.POST, "/photos/trash", #"{"ids":[\#(a2)]}"#)
        XCTAssertEqual(trashed.status, .ok, trashed.text)
        XCTAssertEqual(titles(call(.GET, "/albums/\(picks)")), ["b1"], "in the trash: not shown")
        let batch = try XCTUnwrap(trashed.object["batch"] as? String)
        XCTAssertEqual(call(.POST, "/trash/restore", #"{"batch":"\#(batch)"}"#).status, .ok)
        XCTAssertEqual(Set(titles(call(.GET, "/albums/\(picks)"))), ["a2", "b1"], "restored with its id, back in its album")

        XCTAssertEqual(call(.POST, "/photos/trash", #"{"ids":[\#(a2)]}"#).status, .ok)
        XCTAssertEqual(call(.DELETE, "/trash").status, .noContent)
        XCTAssertEqual(try f.application.collection.album(picks)?.photoIDs, [f.photos["b1"]!], "deleted for good: out of the album")
    }

    func testAnAlbumsLinkShowsOnlyItsPhotosAndFollowsItsChanges() throws {
        let picks = f.albums["picks"]!
        let made = call(.POST, "/shares", #"{"album":\#(picks)}"#)
        XCTAssertEqual(made.status, .created, made.text)
        XCTAssertEqual(made.object["album"] as? Int, picks)
        XCTAssertTrue(made.object["folder"] is NSNull)
        let token = try XCTUnwrap(made.object["token"] as? String)
        XCTAssertEqual(Set(titles(f.request(.GET, "/s/\(token)/photos"))), ["a2", "b1"])
        XCTAssertEqual(f.request(.GET, "/s/\(token)/photos/\(f.photos["b1"]!)").status, .ok)
        XCTAssertEqual(f.request(.GET, "/s/\(token)/photos/\(f.photos["a1"]!)").status, .notFound, "a1 is in a2's folder, not in the album")
        XCTAssertEqual(f.request(.GET, "/s/\(token)/photos/\(f.photos["a1"]!)/thumbnail.jpg").status, .notFound)
        let described = f.request(.GET, "/s/\(token)/share").object
        XCTAssertEqual((described["album"] as? [String: Any])?["title"] as? String, "picks")
        XCTAssertEqual((described["album"] as? [String: Any])?["count"] as? Int, 2)
        XCTAssertTrue(f.request(.GET, "/s/\(token)/iiif/manifest.json").text.contains("/s/\(token)/photos/\(f.photos["b1"]!)/canvas"))

        // A photo added to the album is behind the link (this process forgets what it kept at once).
        XCTAssertEqual(call(.POST, "/albums/\(picks)/photos", #"{"ids":[\#(f.photos["a1"]!)]}"#).status, .ok)
        XCTAssertEqual(f.request(.GET, "/s/\(token)/photos/\(f.photos["a1"]!)").status, .ok)
        XCTAssertEqual(call(.DELETE, "/albums/\(picks)").status, .noContent)
        XCTAssertEqual(f.request(.GET, "/s/\(token)/photos/\(f.photos["a1"]!)").status, .notFound, "the album is gone, and with it what it showed")
        XCTAssertEqual(titles(f.request(.GET, "/s/\(token)/photos")), [])

        // An album's link cannot add photos: uploads land in folders.
        let uploading = call(.POST, "/shares", #"{"album":\#(picks),"upload":true}"#)
        XCTAssertEqual(uploading.status, .badRequest, uploading.text)
    }

    func testBadInputIsRefusedWithProblemDetails() throws {
        let picks = f.albums["picks"]!
        let cases: [(HTTPMethod, String, String?, HTTPStatus)] = [
            (.POST, "/albums", #"{"title":""}"#, .unprocessableContent),
            (.POST, "/albums", #"{"title":"a\nb"}"#, .unprocessableContent),
            (.POST, "/albums", "{" + String(repeating: "x", count: 10) + "}", .badRequest),
            (.POST, "/albums", #"{"name":"x"}"#, .badRequest),
            (.POST, "/albums", nil, .unsupportedMediaType),
            (.PATCH, "/albums/\(picks)", #"{"cover":\#(f.photos["r1"]!)}"#, .badRequest),
            (.PATCH, "/albums/\(picks)", #"{"position":-1}"#, .badRequest),
            (.PATCH, "/albums/\(picks)", #"{"title":"  "}"#, .unprocessableContent),
            (.PATCH, "/albums/999999", #"{"title":"x"}"#, .notFound),
            (.GET, "/albums/abc", nil, .notFound),
            (.GET, "/albums/999999", nil, .notFound),
            (.GET, "/albums/999999/summary", nil, .notFound),
            (.POST, "/albums/\(picks)/photos", #"{"ids":[999999]}"#, .notFound),
            (.POST, "/albums/\(picks)/photos", #"{"ids":"1"}"#, .badRequest),
            (.POST, "/albums/999999/photos", #"{"ids":[1]}"#, .notFound),
            (.DELETE, "/albums/999999/photos", #"{"ids":[1]}"#, .notFound),
            (.POST, "/shares", #"{"album":999999}"#, .badRequest),
            (.POST, "/shares", #"{"album":\#(picks),"folder":1}"#, .badRequest),
            (.POST, "/photos/move", #"{"ids":[1],"album":\#(picks)}"#, .badRequest),
        ]
        for (method, target, body, status) in cases {
            let answer = call(method, target, body)
            XCTAssertEqual(answer.status, status, "\(method) \(target) \(body ?? ""): \(answer.text)")
            XCTAssertEqual(answer.headers["Content-Type"], "application/problem+json", "\(method) \(target)")
        }
        XCTAssertEqual(try f.application.collection.album(picks)?.title, "picks", "nothing changed")
    }

    func testFoldersKeepTodaysShapesUnderTheirNewName() throws {
        let folders = call(.GET, "/folders").object["folders"] as? [[String: Any]] ?? []
        XCTAssertEqual(folders.map { $0["title"] as? String }, ["home", "trip"])
        let trip = f.folders["trip"]!
        XCTAssertEqual(folders.last?["link"] as? String, "/folders/\(trip)")
        let page = call(.GET, "/folders/\(trip)")
        XCTAssertEqual(page.object["path"] as? String, "trip")
        XCTAssertEqual(Set(titles(page)), ["a1", "a2"])
        let manifest = call(.GET, "/folders/\(trip)/manifest.json")
        XCTAssertEqual(manifest.status, .ok, manifest.text)
        XCTAssertTrue(manifest.text.contains("\"trip\""), manifest.text)
        // Moving by a folder's id.
        let moved = call(.POST, "/photos/move", #"{"ids":[\#(f.photos["b1"]!)],"folder":\#(trip)}"#)
        XCTAssertEqual(moved.status, .ok, moved.text)
        XCTAssertTrue(FileManager.default.fileExists(atPath: f.root + "/photos/trip/b1.jpg"))
        // A folder's link is made with "folder".
        let link = call(.POST, "/shares", #"{"folder":\#(trip)}"#)
        XCTAssertEqual(link.status, .created, link.text)
        XCTAssertEqual(link.object["folder"] as? Int, trip)
    }
}
