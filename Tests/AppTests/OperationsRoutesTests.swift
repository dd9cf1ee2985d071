import Foundation
import HTTP
import Observability
import Synchronization
import XCTest
@testable import App

final class OperationsRoutesTests: XCTestCase {
    /// A switch the test flips while the routes read it.
    final class Flag: Sendable {
        private let state: Mutex<Bool>
        init(_ value: Bool) { state = Mutex(value) }
        var value: Bool {
            get { state.withLock { $0 } }
            set { state.withLock { $0 = newValue } }
        }
    }

    private func router(ready: Flag = Flag(true), draining: Flag = Flag(false), metrics: MetricsRegistry = MetricsRegistry()) -> Router {
        var router = Router()
        OperationsRoutes.register(on: &router, metrics: metrics, isReady: { ready.value }, isDraining: { draining.value })
        return router
    }

    private func get(_ router: Router, _ path: String) -> HTTPResponse {
        TestClient(inProcess: router).response(.GET, path)
    }

    private func json(_ response: HTTPResponse) throws -> [String: Any] {
        let bytes = try XCTUnwrap(response.bodyBytes)
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    }

    // The probes run both ways: in-process through the server's `Responder`, and against a live server.
    private func get(_ client: TestClient, _ path: String) throws -> TestResponse {
        try client.execute(.GET, path)
    }

    private func json(_ response: TestResponse) throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
    }

    func testHealthzAnswersOKAsJSONThatNoCacheKeeps() throws {
        try test(router()) { client in
            let response = try get(client, "/healthz")
            XCTAssertEqual(response.status, .ok)
            XCTAssertEqual(response.headers["Content-Type"], "application/json; charset=utf-8")
            XCTAssertEqual(response.headers["Cache-Control"], "no-store")
            XCTAssertEqual(try json(response)["status"] as? String, "ok")
        }
    }

    func testReadyzFlipsWhenTheCatalogHasLoaded() throws {
        for setup in TestingSetup.allCases {
            let ready = Flag(false)
            try test(router(ready: ready), [setup]) { client in
                var response = try get(client, "/readyz")
                XCTAssertEqual(response.status, .serviceUnavailable)
                XCTAssertEqual(response.headers["Content-Type"], "application/problem+json")
                XCTAssertEqual(response.headers["Retry-After"], "1")
                let problem = try json(response)
                XCTAssertEqual(problem["status"] as? Int, 503)
                XCTAssertTrue((problem["detail"] as? String ?? "").contains("catalog"))
                XCTAssertEqual(try get(client, "/healthz").status, .ok, "loading is alive, only not ready")

                ready.value = true
                response = try get(client, "/readyz")
                XCTAssertEqual(response.status, .ok)
                XCTAssertEqual(try json(response)["status"] as? String, "ready")
            }
        }
    }

    func testDrainingTurnsBothProbesAway() throws {
        for setup in TestingSetup.allCases {
            let draining = Flag(false)
            try test(router(draining: draining), [setup]) { client in
                XCTAssertEqual(try get(client, "/healthz").status, .ok)
                draining.value = true
                for path in ["/healthz", "/readyz"] {
                    let response = try get(client, path)
                    XCTAssertEqual(response.status, .serviceUnavailable, path)
                    XCTAssertTrue((try json(response)["detail"] as? String ?? "").contains("shutting down"), path)
                }
            }
        }
    }

    func testHeadOfAProbeWorksForLoadBalancersThatUseIt() throws {
        try test(router()) { client in
            XCTAssertEqual(try client.execute(.HEAD, "/healthz").status, .ok)
            let refused = try client.execute(.POST, "/healthz")
            XCTAssertEqual(refused.status, .methodNotAllowed)
            XCTAssertEqual(refused.headers["Allow"], "GET, HEAD")
            XCTAssertEqual(refused.headers["Content-Type"], "application/problem+json")
            XCTAssertEqual(try json(refused)["status"] as? Int, 405)
            let missing = try client.execute(.GET, "/nowhere")
            XCTAssertEqual(missing.status, .notFound)
            XCTAssertEqual(try json(missing)["detail"] as? String, "No resource at /nowhere.")
        }
    }

    func testMetricsIsPrometheusTextWithProcessAndBuildInfo() throws {
        let response = get(router(), "/metrics")
        XCTAssertEqual(response.status, .ok)
        XCTAssertEqual(response.headers["Content-Type"], "text/plain; version=0.0.4; charset=utf-8")
        let text = try PrometheusText(String(decoding: try XCTUnwrap(response.bodyBytes), as: UTF8.self))
        try text.validate()
        XCTAssertGreaterThan(try XCTUnwrap(text.value("process_resident_memory_bytes")), 1_000_000)
        XCTAssertGreaterThan(try XCTUnwrap(text.value("process_open_fds")), 2)
        XCTAssertGreaterThan(try XCTUnwrap(text.value("process_max_fds")), 0)
        XCTAssertGreaterThan(try XCTUnwrap(text.value("process_cpu_seconds_total")), 0)
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(text.value("process_threads")), 1)
        let start = try XCTUnwrap(text.value("process_start_time_seconds"))
        let now = Date().timeIntervalSince1970
        XCTAssertLessThanOrEqual(start, now + 1)
        XCTAssertGreaterThan(start, now - 6 * 3600, "the test process started within the last hours")
        XCTAssertEqual(text.value("photoscroll_build_info", ["version": BuildInfo.version]), 1)
        XCTAssertEqual(text.types["process_cpu_seconds_total"], "counter")
        XCTAssertEqual(text.types["process_open_fds"], "gauge")
    }

    func testOpenDescriptorsAreCountedWhenScraped() throws {
        let router = router()
        func openFDs() throws -> Double {
            let body = String(decoding: try XCTUnwrap(get(router, "/metrics").bodyBytes), as: UTF8.self)
            return try XCTUnwrap(try PrometheusText(body).value("process_open_fds"))
        }
        let before = try openFDs()
        let pipes = (0..<5).map { _ in Pipe() }
        let during = try openFDs()
        withExtendedLifetime(pipes) {}
        XCTAssertGreaterThanOrEqual(during - before, 10, "five pipes are ten descriptors")
    }

    func testRequestsRecordedByTheServerObserverShowUpByRouteAndStatus() throws {
        let metrics = MetricsRegistry()
        let router = router(metrics: metrics)
        let observer = HTTPMetricsObserver(metrics: metrics)
        func scrape() throws -> PrometheusText {
            let text = try PrometheusText(String(decoding: try XCTUnwrap(get(router, "/metrics").bodyBytes), as: UTF8.self))
            try text.validate()
            return text
        }
        func complete(_ route: String, _ status: HTTPStatus, _ seconds: Double) {
            observer.requestCompleted(CompletedRequest(method: .GET, path: route, routePattern: route, status: status,
                                                       bytesSent: 10, durationSeconds: seconds, remoteAddress: "127.0.0.1"))
        }
        observer.connectionOpened()
        complete("/photos/:id", .ok, 0.002)
        complete("/photos/:id", .ok, 0.2)
        complete("/photos/:id", .notFound, 0.001)
        var text = try scrape()
        let labels = ["method": "GET", "route": "/photos/:id", "status": "200"]
        XCTAssertEqual(text.value("photoscroll_http_requests_total", labels), 2)
        XCTAssertEqual(text.value("photoscroll_http_requests_total", ["route": "/photos/:id", "status": "404"]), 1)
        XCTAssertEqual(text.value("photoscroll_http_request_duration_seconds_count", ["route": "/photos/:id"]), 3)
        XCTAssertEqual(text.value("photoscroll_http_request_duration_seconds_bucket", ["route": "/photos/:id", "le": "0.005"]), 2)
        XCTAssertEqual(text.value("photoscroll_http_open_connections"), 1)

        complete("/photos/:id", .ok, 0.003)
        observer.connectionClosed()
        text = try scrape()
        XCTAssertEqual(text.value("photoscroll_http_requests_total", labels), 3, "the counter moves with traffic")
        XCTAssertEqual(text.value("photoscroll_http_open_connections"), 0)
    }

    func testEveryMethodRouteAndStatusCountsApartPastTheRememberedKeysAndAcrossThreads() throws {
        let metrics = MetricsRegistry()
        let router = router(metrics: metrics)
        let observer = HTTPMetricsObserver(metrics: metrics)
        @Sendable func complete(_ method: HTTPMethod, _ route: String, _ status: HTTPStatus) {
            observer.requestCompleted(CompletedRequest(method: method, path: "/x", routePattern: route, status: status,
                                                       bytesSent: 1, durationSeconds: 0.001, remoteAddress: "127.0.0.1"))
        }
        // More distinct methods than the observer remembers: every one still counts.
        let methods = (0..<(RequestSeriesCache.limit + 10)).map { HTTPMethod("M\($0)") }
        for method in methods { complete(method, "", .notFound) }
        for method in methods { complete(method, "", .notFound) }
        // Two threads, interleaved keys that differ in one field each.
        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            for _ in 0..<500 {
                complete(.GET, "/photos/:id/tiles/:z/:x/:y.jpg", .ok)
                complete(.HEAD, "/photos/:id/tiles/:z/:x/:y.jpg", .ok)
                complete(.GET, "/photos/:id/tiles/:z/:x/:y.jpg", .notModified)
                complete(.GET, "/photos/:id", .ok)
            }
        }
        let text = try PrometheusText(String(decoding: try XCTUnwrap(get(router, "/metrics").bodyBytes), as: UTF8.self))
        try text.validate()
        let tiles = "/photos/:id/tiles/:z/:x/:y.jpg"
        XCTAssertEqual(text.value("photoscroll_http_requests_total", ["method": "GET", "route": tiles, "status": "200"]), 1000)
        XCTAssertEqual(text.value("photoscroll_http_requests_total", ["method": "HEAD", "route": tiles, "status": "200"]), 1000)
        XCTAssertEqual(text.value("photoscroll_http_requests_total", ["method": "GET", "route": tiles, "status": "304"]), 1000)
        XCTAssertEqual(text.value("photoscroll_http_requests_total", ["method": "GET", "route": "/photos/:id", "status": "200"]), 1000)
        XCTAssertEqual(text.value("photoscroll_http_request_duration_seconds_count", ["route": tiles]), 3000)
        for method in [methods.first!, methods.last!] {
            XCTAssertEqual(text.value("photoscroll_http_requests_total", ["method": method.rawValue, "route": "unmatched", "status": "404"]), 2)
        }
        XCTAssertEqual(text.value("photoscroll_http_request_duration_seconds_count", ["route": "unmatched"]), Double(2 * methods.count))
    }

    func testMetricsOfEveryLayerRenderTogether() throws {
        let metrics = MetricsRegistry()
        // The names other layers record under, as the deployment docs promise them.
        metrics.counter("photoscroll_tile_cache_hits_total", help: "Tile cache hits.").increment(by: 4)
        metrics.counter("photoscroll_tile_cache_misses_total", help: "Tile cache misses.").increment()
        metrics.gauge("photoscroll_ingest_queue_length", help: "Photos waiting.").set(2)
        metrics.histogram("photoscroll_ingest_duration_seconds", help: "Ingest time.").observe(3.5)
        metrics.counter("photoscroll_comment_posts_total", help: "Comments posted.").increment(by: 1, [("result", "created")])
        let body = String(decoding: try XCTUnwrap(get(router(metrics: metrics), "/metrics").bodyBytes), as: UTF8.self)
        let text = try PrometheusText(body)
        try text.validate()
        XCTAssertEqual(text.value("photoscroll_tile_cache_hits_total"), 4)
        XCTAssertEqual(text.value("photoscroll_ingest_queue_length"), 2)
        XCTAssertEqual(text.value("photoscroll_ingest_duration_seconds_bucket", ["le": "5"]), 1)
        XCTAssertEqual(text.value("photoscroll_ingest_duration_seconds_bucket", ["le": "2.5"]), 0)
        XCTAssertEqual(text.value("photoscroll_comment_posts_total", ["result": "created"]), 1)
    }

    func testOddValuesAndTextStayParseable() throws {
        let metrics = MetricsRegistry()
        metrics.gauge("demo_ratio", help: "A ratio\nthat may be undefined, see C:\\docs.").set(.nan)
        metrics.counter("demo_total", help: "Labels with quotes.").increment(by: 1, [("path", "/a\"b\\c\nd")])
        let body = String(decoding: try XCTUnwrap(get(router(metrics: metrics), "/metrics").bodyBytes), as: UTF8.self)
        let text = try PrometheusText(body)
        try text.validate()
        XCTAssertEqual(text.help["demo_ratio"], "A ratio\\nthat may be undefined, see C:\\\\docs.")
        XCTAssertTrue(try XCTUnwrap(text.value("demo_ratio")).isNaN)
        XCTAssertEqual(text.value("demo_total", ["path": "/a\"b\\c\nd"]), 1)
    }

    func testTheParserRejectsWhatAScraperWould() {
        XCTAssertThrowsError(try PrometheusText("x 1"), "no final newline")
        XCTAssertThrowsError(try PrometheusText("x{a=\"1} 1\n"))
        XCTAssertThrowsError(try PrometheusText("x{a=1} 1\n"))
        XCTAssertThrowsError(try PrometheusText("1x 1\n"))
        XCTAssertThrowsError(try PrometheusText("x one\n"))
        XCTAssertThrowsError(try PrometheusText("x 1\n").validate(), "a sample without TYPE")
        XCTAssertNoThrow(try PrometheusText("# TYPE x counter\nx{a=\"q\\\"\\n\"} 1.5e-05\n").validate())
    }
}
