import Access
import Foundation
@testable import App
@testable import HTTP
import Library
import XCTest

/// `GET /places` and `GET /memories`, and the same under a link, in-process over the search
/// fixture (four photos taken 2024-05-01 near London).
final class PlaceAndMemoryRouteTests: XCTestCase {
    func testPlacesCountTheViewsPhotosWhereLocationsAreShown() throws {
        let f = try searchFixture(showLocation: true)
        defer { f.close() }
        let owner: HTTPHeaders = ["Cookie": try f.signIn("ana", AccessFixture.ownerPassword)]
        let answer = f.request(.GET, "/places", headers: owner)
        XCTAssertEqual(answer.status, .ok, answer.text)
        let places = try XCTUnwrap(answer.object["places"] as? [[String: Any]])
        XCTAssertEqual(places.count, 1)
        let london = try XCTUnwrap(places.first)
        XCTAssertEqual(london["name"] as? String, "London")
        XCTAssertEqual(london["region"] as? String, "England")
        XCTAssertEqual(london["country"] as? String, "United Kingdom")
        XCTAssertEqual(london["count"] as? Int, 4)
        let cover = try XCTUnwrap(london["cover"] as? [String: Any])
        let coverID = try XCTUnwrap(cover["id"] as? Int)
        XCTAssertTrue(f.photos.values.contains(coverID))
        XCTAssertTrue((cover["thumbnail"] as? String)?.hasPrefix("/photos/\(coverID)/thumbnail.jpg?v=") == true, "\(cover)")
        let query = try XCTUnwrap(london["query"] as? String)
        XCTAssertEqual(f.request(.GET, "/search?q=\(SearchRoutes<PhotoLibrary>.escaped(query))", headers: owner).object["total"] as? Int, 4,
                       "the place's query finds its photos")
        XCTAssertEqual(f.request(.GET, "/places").status, .unauthorized, "a private library")

        let hidden = try f.share(ShareRequest(target: .folder(f.folders["trip"]!), expiresAt: nil))
        let none = f.request(.GET, "/s/\(hidden.token)/places")
        XCTAssertEqual(none.status, .ok, none.text)
        XCTAssertEqual((none.object["places"] as? [Any])?.count, 0, "a link without location lists no place")
        let located = try f.share(ShareRequest(target: .folder(f.folders["trip"]!), expiresAt: nil, location: true))
        let shown = try XCTUnwrap((f.request(.GET, "/s/\(located.token)/places").object["places"] as? [[String: Any]])?.first)
        XCTAssertEqual(shown["count"] as? Int, 2, "the link's photos only")
        let thumbnail = (shown["cover"] as? [String: Any])?["thumbnail"] as? String
        XCTAssertTrue(thumbnail?.hasPrefix("/s/\(located.token)/photos/") == true, thumbnail ?? "no cover")
        XCTAssertTrue([f.photos["a1"], f.photos["a2"]].contains((shown["cover"] as? [String: Any])?["id"] as? Int))
    }

    func testPlacesAreEmptyWhereTheLibraryHidesLocations() throws {
        let f = try searchFixture()
        defer { f.close() }
        let owner: HTTPHeaders = ["Cookie": try f.signIn("ana", AccessFixture.ownerPassword)]
        let answer = f.request(.GET, "/places", headers: owner)
        XCTAssertEqual(answer.status, .ok, answer.text)
        XCTAssertEqual((answer.object["places"] as? [Any])?.count, 0)
    }

    func testMemoriesAreTheDaysPhotosOfEarlierYears() throws {
        let f = try searchFixture()
        defer { f.close() }
        let owner: HTTPHeaders = ["Cookie": try f.signIn("ana", AccessFixture.ownerPassword)]
        let answer = f.request(.GET, "/memories?date=2026-05-01", headers: owner)
        XCTAssertEqual(answer.status, .ok, answer.text)
        XCTAssertEqual(answer.object["date"] as? String, "2026-05-01")
        let years = try XCTUnwrap(answer.object["years"] as? [[String: Any]])
        XCTAssertEqual(years.map { $0["year"] as? Int }, [2024])
        XCTAssertEqual(years.first?["yearsAgo"] as? Int, 2)
        let titles = (years.first?["photos"] as? [[String: Any]])?.compactMap { $0["title"] as? String }
        XCTAssertEqual(Set(titles ?? []), ["a1", "a2", "b1", "r1"])
        XCTAssertEqual((f.request(.GET, "/memories?date=2024-05-01", headers: owner).object["years"] as? [Any])?.count, 0,
                       "the same year is not a memory")
        XCTAssertEqual((f.request(.GET, "/memories?date=2026-05-02", headers: owner).object["years"] as? [Any])?.count, 0)

        let link = try f.share(ShareRequest(target: .folder(f.folders["trip"]!), expiresAt: nil))
        let shared = f.request(.GET, "/s/\(link.token)/memories?date=2025-05-01")
        XCTAssertEqual(shared.status, .ok, shared.text)
        let sharedPhotos = ((shared.object["years"] as? [[String: Any]])?.first?["photos"] as? [[String: Any]]) ?? []
        XCTAssertEqual(Set(sharedPhotos.compactMap { $0["title"] as? String }), ["a1", "a2"], "the link's photos only")
        XCTAssertTrue(sharedPhotos.allSatisfy { ($0["thumbnail"] as? String)?.hasPrefix("/s/\(link.token)/") == true })
    }

    func testMemoriesDefaultToTodayAndRefuseABadDate() throws {
        let f = try searchFixture()
        defer { f.close() }
        let owner: HTTPHeaders = ["Cookie": try f.signIn("ana", AccessFixture.ownerPassword)]
        let today = MemoryRoutes<PhotoLibrary>.localToday()
        let answer = f.request(.GET, "/memories", headers: owner)
        XCTAssertEqual(answer.status, .ok, answer.text)
        XCTAssertEqual(answer.object["date"] as? String, String(format: "%04d-%02d-%02d", today.year, today.month, today.day))
        for date in ["2025-02-29", "2025-5-1", "yesterday", "", "2025-05-01%00", "1700-05-01", "2025-05-01T00:00"] {
            let refused = f.request(.GET, "/memories?date=\(date)", headers: owner)
            XCTAssertEqual(refused.status, .badRequest, date)
            XCTAssertEqual(refused.headers["Content-Type"], "application/problem+json", date)
        }
        XCTAssertEqual(f.request(.GET, "/memories?date=2025-05-01").status, .unauthorized, "a private library")
    }
}
