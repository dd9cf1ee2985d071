import XCTest
@testable import HTTP
import Observability

final class RouterTests: XCTestCase {
    func testPatternsParametersAndRest() {
        var router = Router()
        router.get("/photos/:id", execution: .inline) { r in HTTPResponse(contentType: "text/plain", bytes: Array(r.parameters["id"]!.utf8)) }
        router.get("/photos/:id/tiles/:z/:x/:y.jpg", execution: .inline) { r in
            HTTPResponse(contentType: "text/plain", bytes: Array("\(r.parameters["z"]!)-\(r.parameters["x"]!)-\(r.parameters["y"]!)".utf8))
        }
        router.get("/files/*path", execution: .inline) { r in HTTPResponse(contentType: "text/plain", bytes: Array(r.parameters["path"]!.utf8)) }
        router.post("/photos/:id/comments") { _ in HTTPResponse(status: .created) }

        func body(_ method: HTTPMethod, _ target: String) -> (Int, String) {
            let response = Responder(router: router).respond(to: HTTPRequest(method: method, target: target))
            return (response.status.rawValue, String(decoding: response.bodyBytes ?? [], as: UTF8.self))
        }
        XCTAssertEqual(body(.GET, "/photos/3").1, "3")
        XCTAssertEqual(body(.GET, "/photos/3/tiles/2/1/0.jpg").1, "2-1-0")
        XCTAssertEqual(body(.GET, "/files/a/b/c.js?x=1").1, "a/b/c.js")
        XCTAssertEqual(body(.GET, "/files/").1, "")
        XCTAssertEqual(body(.HEAD, "/photos/3").0, 200)
        XCTAssertEqual(body(.POST, "/photos/3/comments").0, 201)
        XCTAssertEqual(body(.GET, "/photos/3/").0, 404)
        XCTAssertEqual(body(.GET, "/photos/3/tiles/2/1/0.png").0, 404)
        let notAllowed = Responder(router: router).respond(to: HTTPRequest(method: .DELETE, target: "/photos/3"))
        XCTAssertEqual(notAllowed.status, .methodNotAllowed)
        XCTAssertEqual(notAllowed.headers["Allow"], "GET, HEAD")
    }

    /// A JSON route is one registration and one type: the value comes back through `JSONWriter`.
    struct Greeting: ResponseEncodable {
        let id: Int
        let text: String
        let next: Nullable<String>
    }

    func testAnEncodableAnswerIsWrittenAsJSON() throws {
        var router = Router()
        router.get("/greetings/:id", execution: .inline) { r in Greeting(id: Int(r.parameters["id"]!) ?? 0, text: "hi \u{2028}</script>", next: nil) }
        router.post("/greetings") { _ in Greeting(id: 1, text: "made", next: Nullable("/greetings/1")) }
        let response = Responder(router: router).respond(to: HTTPRequest(method: .GET, target: "/greetings/7"))
        XCTAssertEqual(response.status, .ok)
        XCTAssertEqual(response.headers["Content-Type"], "application/json; charset=utf-8")
        XCTAssertEqual(response.headers["X-Content-Type-Options"], "nosniff")
        XCTAssertEqual(String(decoding: try XCTUnwrap(response.bodyBytes), as: UTF8.self), #"{"id":7,"text":"hi \u2028</script>","next":null}"#)
        let posted = Responder(router: router).respond(to: HTTPRequest(method: .POST, target: "/greetings"))
        XCTAssertEqual(String(decoding: try XCTUnwrap(posted.bodyBytes), as: UTF8.self), #"{"id":1,"text":"made","next":"/greetings/1"}"#)
        // Problems go through the same writer.
        let problem = HTTPResponse.problem(.badRequest, detail: "bad \"x\"\n")
        XCTAssertEqual(String(decoding: try XCTUnwrap(problem.bodyBytes), as: UTF8.self),
                       #"{"type":"about:blank","title":"Bad Request","status":400,"detail":"bad \"x\"\n"}"#)
    }

    func testPathsWithAnotherNumberOfPartsArePassedOverAndCopiesMatchAlike() {
        var router = Router()
        router.get("/", execution: .inline) { _ in HTTPResponse(status: .ok) }
        router.get("/a/:x", execution: .inline) { _ in HTTPResponse(status: .ok) }
        router.get("/a/:x/b", execution: .inline) { _ in HTTPResponse(status: .ok) }
        router.get("/a/*rest", execution: .inline) { _ in HTTPResponse(status: .ok) }
        let copy = router.copyingRoutes()
        func pattern(_ router: Router, _ path: String) -> String? {
            if case .found(let route, _) = router.match(.GET, path: path) { return route.pattern }
            return nil
        }
        let paths = ["/", "/a", "/a/", "/a/1", "/a/1/", "/a/1/b", "/a/1/b/", "/a/1/c", "/a/1/b/c", "//", "/a//b", "/b"]
        let expected: [String?] = ["/", "/a/*rest", "/a/*rest", "/a/:x", "/a/*rest", "/a/:x/b", "/a/*rest", "/a/*rest", "/a/*rest", nil, "/a/*rest", nil]
        XCTAssertEqual(paths.map { pattern(router, $0) }, expected)
        XCTAssertEqual(paths.map { pattern(copy, $0) }, expected)
        // The copy's routes are objects of their own, with the same handlers.
        for (original, copied) in zip(router.routes, copy.routes) {
            XCTAssertFalse(original === copied)
            XCTAssertEqual(original.pattern, copied.pattern)
        }
    }

    /// Routes that overlap the way the application's do, each answering with its own pattern.
    static let overlapping: [(HTTPMethod, String)] = [
        (.GET, "/"), (.GET, "/*path"), (.GET, "/:anything"), (.GET, "/photos"), (.GET, "/photos/summary"),
        (.GET, "/photos/events"), (.GET, "/photos/:id"), (.DELETE, "/photos/:id"), (.GET, "/photos/:id/thumbnail.jpg"),
        (.GET, "/photos/:id/:file.json"), (.GET, "/photos/:id/:file"), (.GET, "/photos/:id/tiles/:z/:x/:y.jpg"),
        (.GET, "/photos/:id/comments"), (.POST, "/photos/:id/comments"), (.GET, "/photos/:id/comments/events"),
        (.GET, "/photos/:id/comments/:cid"), (.DELETE, "/photos/:id/comments/:cid"), (.OPTIONS, "/photos/:id/comments/:cid"),
        (.GET, "/files/*path"), (.GET, "/files/:name/raw"), (.GET, "/albums"), (.GET, "/albums/:id"),
    ]

    /// Method, path, and the pattern that answers it (a status for a refusal, with `Allow` for 405).
    static let table: [(HTTPMethod, String, String)] = [
        (.GET, "/", "/"), (.HEAD, "/", "/"), (.GET, "/app.js", "/:anything"), (.GET, "/a/b/c", "/*path"),
        (.GET, "/photos", "/photos"), (.GET, "/photos/", "/*path"), (.GET, "/photos/summary", "/photos/summary"),
        (.GET, "/photos/events", "/photos/events"), (.GET, "/photos/3", "/photos/:id"), (.DELETE, "/photos/3", "/photos/:id"),
        (.DELETE, "/photos/events", "/photos/:id"), (.HEAD, "/photos/3", "/photos/:id"),
        (.GET, "/photos/3/thumbnail.jpg", "/photos/:id/thumbnail.jpg"), (.GET, "/photos/3/info.json", "/photos/:id/:file.json"),
        (.GET, "/photos/3/.json", "/photos/:id/:file"), (.GET, "/photos/3/original", "/photos/:id/:file"),
        (.GET, "/photos/3/tiles/2/1/0.jpg", "/photos/:id/tiles/:z/:x/:y.jpg"), (.GET, "/photos/3/tiles/2/1/0.png", "/*path"),
        (.GET, "/photos/3/comments", "/photos/:id/comments"), (.POST, "/photos/3/comments", "/photos/:id/comments"),
        (.GET, "/photos/3/comments/events", "/photos/:id/comments/events"),
        (.GET, "/photos/3/comments/19", "/photos/:id/comments/:cid"), (.DELETE, "/photos/3/comments/events", "/photos/:id/comments/:cid"),
        (.GET, "/files", "/files/*path"), (.GET, "/files/a/raw", "/files/:name/raw"), (.GET, "/files/a/raw/b", "/files/*path"),
        (.GET, "/files/a/cooked", "/files/*path"),
        // Literals as long as each other ("albums", "photos", and "app.js" for a parameter).
        (.GET, "/albums", "/albums"), (.GET, "/albums/7", "/albums/:id"), (.GET, "/albums/7/x", "/*path"),
        (.POST, "/photos/3", "405 GET, HEAD, DELETE"), (.PUT, "/photos/3/comments", "405 GET, HEAD, POST"),
        (.PUT, "/photos/3/comments/events", "405 GET, HEAD, DELETE, OPTIONS"), (.POST, "/", "405 GET, HEAD"),
        (.POST, "/files/a/raw", "405 GET, HEAD"),
    ]

    /// The answer for one row: the pattern that matched, or the refusal's status and `Allow`.
    private func outcome(_ router: Router, _ method: HTTPMethod, _ path: String) -> String {
        switch Responder(router: router).resolve(method, path: path) {
        case .route(let route, _): route.pattern
        case .refused(let error): "\(error.status.rawValue) \(error.headers["Allow"] ?? "")"
        }
    }

    func testTheSameRouteAnswersWhateverTheRegistrationOrder() {
        var generator = SystemRandomNumberGenerator()
        var orders = [Self.overlapping, Array(Self.overlapping.reversed())]
        for _ in 0..<50 { orders.append(Self.overlapping.shuffled(using: &generator)) }
        for order in orders {
            var router = Router()
            for (method, pattern) in order { router.add(method, pattern, execution: .inline) { _ in HTTPResponse() } }
            for (method, path, expected) in Self.table {
                XCTAssertEqual(outcome(router, method, path), expected, "\(method) \(path), registered as \(order.map(\.1))")
            }
            XCTAssertEqual(outcome(router, .GET, "//"), "/*path")
        }
    }

    func testNoSuchPathIs404AndOtherMethodsAre405() {
        var router = Router()
        router.get("/photos/:id", execution: .inline) { _ in HTTPResponse() }
        router.post("/photos/:id/comments") { _ in HTTPResponse(status: .created) }
        XCTAssertEqual(outcome(router, .GET, "/albums"), "404 ")
        XCTAssertEqual(outcome(router, .GET, "/photos/3/comments"), "405 POST", "HEAD is allowed only where GET is")
        XCTAssertEqual(outcome(router, .HEAD, "/photos/3/comments"), "405 POST")
        XCTAssertEqual(outcome(router, .GET, "/photos/3/comments/4"), "404 ")
        if case .methodNotAllowed(let allow) = router.match(.PUT, path: "/photos/3") {
            XCTAssertEqual(allow, [.GET, .HEAD])
        } else {
            XCTFail("expected 405")
        }
    }
}
