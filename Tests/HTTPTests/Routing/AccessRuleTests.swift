import Synchronization
import XCTest
@testable import HTTP

/// Every route's access rule is asked before its handler, in-process and on a live server.
final class AccessRuleTests: XCTestCase {
    /// Admits requests carrying `X-Key: yes`, asks a "database" for `X-Key: later`, refuses the rest.
    struct KeyRule: AccessRule {
        let looked: Counter
        func admit(_ request: HTTPRequest) -> Admission {
            switch request.headers["X-Key"] {
            case "yes": return .granted
            case "later":
                return .deferred { [looked] in
                    looked.add()
                    return request.query("deny") == nil ? nil : .problem(.forbidden, detail: "No.")
                }
            default: return .refused(.problem(.unauthorized, detail: "Who are you?"))
            }
        }
    }

    final class Counter: Sendable {
        let value = Atomic(0)
        func add() { value.add(1, ordering: .relaxed) }
    }

    private func router(_ ran: Counter, _ looked: Counter) -> Router {
        var router = Router(requiringAccessRules: true)
        let rule = KeyRule(looked: looked)
        router.get("/inline", execution: .inline, access: rule) { _ in ran.add(); return HTTPResponse(contentType: "text/plain", bytes: Array("in".utf8)) }
        router.addReply(.GET, "/offloaded", access: rule) { _ in .offload { ran.add(); return HTTPResponse(contentType: "text/plain", bytes: Array("off".utf8)) } }
        router.addReply(.GET, "/encoded", access: rule) { _ in
            ran.add()
            return .encoded(EncodedResponse(headers: ["Content-Type": "text/plain"], body: Array("enc".utf8)))
        }
        return router
    }

    func testTheRuleDecidesBeforeTheHandlerRuns() {
        let ran = Counter(), looked = Counter()
        let responder = Responder(router: router(ran, looked))
        func answer(_ target: String, key: String?) -> (Int, String) {
            var headers = HTTPHeaders()
            if let key { headers.add("X-Key", key) }
            let response = responder.respond(to: HTTPRequest(method: .GET, target: target, headers: headers))
            return (response.status.rawValue, String(decoding: response.bodyBytes ?? [], as: UTF8.self))
        }
        for path in ["/inline", "/offloaded", "/encoded"] {
            XCTAssertEqual(answer(path, key: nil).0, 401, path)
            XCTAssertEqual(answer(path + "?deny", key: "later").0, 403, path)
        }
        XCTAssertEqual(ran.value.load(ordering: .relaxed), 0, "no handler ran for a refused request")
        XCTAssertEqual(answer("/inline", key: "yes").1, "in")
        XCTAssertEqual(answer("/offloaded", key: "later").1, "off")
        XCTAssertEqual(answer("/encoded", key: "later").1, "enc")
        XCTAssertEqual(ran.value.load(ordering: .relaxed), 3)
        XCTAssertEqual(looked.value.load(ordering: .relaxed), 5)
    }

    func testOnALiveServerADeferredDecisionRunsOffTheLoop() throws {
        let ran = Counter(), looked = Counter()
        let server = HTTPServer(configuration: HTTPServerConfiguration(host: "127.0.0.1", port: 0, eventLoops: 1, workerThreads: 2),
                                router: router(ran, looked), logger: .disabled)
        try server.start()
        defer {
            server.shutdown(graceSeconds: 1)
            server.wait()
        }
        let client = try HTTPClientConnection(port: server.port)
        defer { client.close() }
        func get(_ target: String, key: String? = nil) throws -> HTTPClientResponse {
            try client.send("GET \(target) HTTP/1.1\r\nHost: a\r\n" + (key.map { "X-Key: \($0)\r\n" } ?? "") + "\r\n")
            return try client.readResponse()
        }
        XCTAssertEqual(try get("/encoded").status, 401)
        XCTAssertEqual(try get("/encoded", key: "later").text, "enc")
        XCTAssertEqual(try get("/offloaded?deny", key: "later").status, 403)
        XCTAssertEqual(try get("/inline", key: "yes").text, "in")
        XCTAssertEqual(ran.value.load(ordering: .relaxed), 2)
    }

    func testARouterThatRequiresRulesKnowsEveryRouteHasOne() {
        let router = router(Counter(), Counter())
        XCTAssertTrue(router.requiresAccessRules)
        XCTAssertTrue(router.routes.allSatisfy { $0.access != nil })
        XCTAssertFalse(Router().requiresAccessRules)
    }
}
