import Access
import Foundation
@testable import App
import HTTP
import XCTest

/// An album's own order through the API: its photos put in an order (`PATCH /albums/{id}`
/// `"order"`, or `POST /albums/{id}/photos` with a `"position"`), listed, summed up and paged in
/// it; `?order=` and `"order":"taken"` still give the date order; bad input is a problem.
final class AlbumOrderRoutesTests: XCTestCase {
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

    private func ids(_ answer: TestResponse) -> [Int] {
        (answer.object["photos"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? Int }
    }

    /// Every id of a list, a page of one photo at a time, following `next`.
    private func walk(_ first: String) -> [Int] {
        var found: [Int] = [], target: String? = first
        while let next = target, found.count < 10 {
            let page = call(.GET, next)
            XCTAssertEqual(page.status, .ok, page.text)
            found += ids(page)
            target = page.object["next"] as? String
        }
        return found
    }

    private func summaryIDs(_ target: String) -> [Int] {
        (call(.GET, target).object["idRuns"] as? [[Int]] ?? []).flatMap { run in (0..<run[1]).map { run[0] + $0 } }
    }

    func testAnAlbumInItsOwnOrderIsListedSummedUpAndPagedInIt() throws {
        let (a1, a2, b1, r1) = (f.photos["a1"]!, f.photos["a2"]!, f.photos["b1"]!, f.photos["r1"]!)
        let id = try XCTUnwrap(call(.POST, "/albums", #"{"title":"Ordered"}"#).object["id"] as? Int)
        XCTAssertEqual(call(.POST, "/albums/\(id)/photos", "{\"ids\":[\(a1),\(b1)]}").object["order"] as? String, "taken")
        let byDate = ids(call(.GET, "/albums/\(id)"))

        let ordered = call(.PATCH, "/albums/\(id)", "{\"order\":[\(a1),\(b1)]}")
        XCTAssertEqual(ordered.status, .ok, ordered.text)
        XCTAssertEqual(ordered.object["order"] as? String, "custom")
        XCTAssertEqual(ids(call(.GET, "/albums/\(id)")), [a1, b1])
        // Put at a place of its own order: r1 between them, a2 first.
        XCTAssertEqual(call(.POST, "/albums/\(id)/photos", "{\"ids\":[\(r1)],\"position\":1}").status, .ok)
        XCTAssertEqual(call(.POST, "/albums/\(id)/photos", "{\"ids\":[\(a2)],\"position\":0}").status, .ok)
        let own = [a2, a1, r1, b1]
        XCTAssertEqual(ids(call(.GET, "/albums/\(id)")), own)
        XCTAssertEqual(walk("/albums/\(id)?limit=1"), own, "pages follow the album's order")
        XCTAssertEqual(summaryIDs("/albums/\(id)/summary"), own, "and so does its summary, which the page draws")
        XCTAssertEqual(try f.application.collection.album(id)?.photoIDs, own, "kept in the database")
        // Its link shows it in the same order, the pager's neighbours too.
        let link = try f.share(ShareRequest(target: .album(id), expiresAt: nil))
        XCTAssertEqual(ids(f.request(.GET, "/s/\(link.token)/photos")), own)
        let second = f.request(.GET, "/s/\(link.token)/photos/\(a1)").object
        XCTAssertEqual([second["position"] as? Int, second["previous"] as? Int, second["next"] as? Int], [1, a2, r1])
        // Added without a position: after its last.
        XCTAssertEqual(call(.POST, "/albums/\(id)/photos", "{\"ids\":[\(a1)]}").status, .ok)
        XCTAssertEqual(ids(call(.GET, "/albums/\(id)")), own, "a photo already in it stays where it is")

        // The date order is still asked for by name, and pages keep asking for it.
        let dates = ids(call(.GET, "/albums/\(id)?order=taken"))
        XCTAssertEqual(Set(dates), Set(own))
        XCTAssertNotEqual(dates, own)
        XCTAssertEqual(walk("/albums/\(id)?order=taken&limit=1"), dates)
        let back = call(.PATCH, "/albums/\(id)", #"{"order":"taken"}"#)
        XCTAssertEqual(back.object["order"] as? String, "taken")
        XCTAssertEqual(ids(call(.GET, "/albums/\(id)")), dates)
        XCTAssertEqual(call(.PATCH, "/albums/\(id)", #"{"order":"custom"}"#).object["order"] as? String, "custom")
        XCTAssertEqual(ids(call(.GET, "/albums/\(id)")), own, "its own order was kept meanwhile")
        XCTAssertNotEqual(byDate, [a1, b1], "the fixture's date order is not the one put")
    }

    func testAPhotoInTheTrashKeepsItsPlaceInTheAlbumsOrder() throws {
        let (a1, b1, r1) = (f.photos["a1"]!, f.photos["b1"]!, f.photos["r1"]!)
        let id = try XCTUnwrap(call(.POST, "/albums", #"{"title":"Ordered"}"#).object["id"] as? Int)
        XCTAssertEqual(call(.POST, "/albums/\(id)/photos", "{\"ids\":[\(r1),\(a1),\(b1)],\"position\":0}").status, .ok)
        let trashed = call(.POST, "/photos/trash", "{\"ids\":[\(a1)]}")
        XCTAssertEqual(trashed.status, .ok, trashed.text)
        XCTAssertEqual(ids(call(.GET, "/albums/\(id)")), [r1, b1])
        XCTAssertEqual(walk("/albums/\(id)?limit=1"), [r1, b1])
        XCTAssertEqual(ids(call(.GET, "/albums/\(id)?after=\(a1)")), [b1], "a page after a photo no longer listed starts where it was")
        let batch = try XCTUnwrap(trashed.object["batch"] as? String)
        XCTAssertEqual(call(.POST, "/trash/restore", "{\"batch\":\"\(batch)\"}").status, .ok)
        XCTAssertEqual(ids(call(.GET, "/albums/\(id)")), [r1, a1, b1], "restored into its place")
    }

    func testBadOrdersAreRefusedWithProblemDetails() throws {
        let picks = f.albums["picks"]!
        let (a1, a2) = (f.photos["a1"]!, f.photos["a2"]!)
        let cases: [(HTTPMethod, String, String, HTTPStatus)] = [
            (.PATCH, "/albums/\(picks)", "{\"order\":[\(a1)]}", .unprocessableContent),
            (.PATCH, "/albums/\(picks)", "{\"order\":[\(a2),\(a2)]}", .unprocessableContent),
            (.PATCH, "/albums/\(picks)", #"{"order":"sideways"}"#, .badRequest),
            (.PATCH, "/albums/\(picks)", #"{"order":{"ids":[1]}}"#, .badRequest),
            (.PATCH, "/albums/999999", #"{"order":"taken"}"#, .notFound),
            (.POST, "/albums/\(picks)/photos", "{\"ids\":[\(a1)],\"position\":-1}", .badRequest),
            (.POST, "/albums/\(picks)/photos", "{\"ids\":[\(a1)],\"position\":\"first\"}", .badRequest),
        ]
        for (method, target, body, status) in cases {
            let answer = call(method, target, body)
            XCTAssertEqual(answer.status, status, "\(method) \(target) \(body): \(answer.text)")
            XCTAssertEqual(answer.headers["Content-Type"], "application/problem+json", "\(method) \(target)")
        }
        let album = try XCTUnwrap(try f.application.collection.album(picks))
        XCTAssertEqual(album.photoOrder, .taken, "nothing changed")
        XCTAssertFalse(album.photoIDs.contains(a1))
    }
}
