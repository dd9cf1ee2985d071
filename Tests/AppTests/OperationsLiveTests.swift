import Dispatch
import Foundation
import HTTP
import Observability
import Synchronization
import XCTest
@testable import App
import TestSupport

/// The operations routes on a real socket server: metrics move with traffic, shutdown waits for
/// in-flight work and no longer.
final class OperationsLiveTests: XCTestCase {
    /// A live server (see `TestClient`) with the operations routes and `extra` ones.
    private func startServer(metrics: MetricsRegistry, draining: Draining = Draining(),
                             _ extra: (inout Router) -> Void = { _ in }) throws -> HTTPServer {
        var router = Router()
        OperationsRoutes.register(on: &router, metrics: metrics, isReady: { true }, isDraining: { draining.isDraining })
        extra(&router)
        var options = TestServerOptions()
        options.server = HTTPServerConfiguration(host: "127.0.0.1", port: 0, eventLoops: 2, workerThreads: 4)
        options.observer = HTTPMetricsObserver(metrics: metrics)
        // The tests here are about the server's shutdown: they stop it themselves.
        return try XCTUnwrap(try TestClient(.live, router: router, options: options).server)
    }

    /// Shuts `server` down on a thread of its own, so the test can watch it wait; the semaphore
    /// is signalled once the server has stopped.
    private func stopInBackground(_ server: HTTPServer, graceSeconds: Double) -> DispatchSemaphore {
        let stopped = DispatchSemaphore(value: 0)
        Thread {
            server.shutdown(graceSeconds: graceSeconds)
            server.wait()
            stopped.signal()
        }.start()
        return stopped
    }

    private func scrape(_ port: Int) throws -> PrometheusText {
        let (status, headers, body) = try HTTPClient.get(url: "http://127.0.0.1:\(port)/metrics")
        XCTAssertEqual(status, 200)
        XCTAssertEqual(headers["Content-Type"], OperationsRoutes.metricsContentType)
        let text = try PrometheusText(String(decoding: body, as: UTF8.self))
        try text.validate()
        return text
    }

    func testRequestCountsAndLatenciesMoveWithTraffic() throws {
        let metrics = MetricsRegistry()
        let server = try startServer(metrics: metrics) { router in
            router.get("/photos/:id", execution: .inline) { request in
                guard request.parameters["id"] == "1" else { throw HTTPError(.notFound, "No photo.") }
                return HTTPResponse(contentType: "text/plain", bytes: Array("one".utf8))
            }
        }
        defer { server.shutdown(graceSeconds: 1); server.wait() }
        let ok = ["method": "GET", "route": "/photos/:id", "status": "200"]
        let before = try scrape(server.port).value("photoscroll_http_requests_total", ok) ?? 0
        for _ in 0..<3 { XCTAssertEqual(try HTTPClient.get(url: "http://127.0.0.1:\(server.port)/photos/1").status, 200) }
        XCTAssertEqual(try HTTPClient.get(url: "http://127.0.0.1:\(server.port)/photos/2").status, 404)
        XCTAssertEqual(try HTTPClient.get(url: "http://127.0.0.1:\(server.port)/nowhere").status, 404)

        // A request is counted once its answer is written, so its client may read the answer (and
        // ask for /metrics on another connection) a moment before the count moves: the scrape is
        // asked again until the last request is in.
        var text = try scrape(server.port)
        try eventually(timeout: 30) {
            text = try scrape(server.port)
            return text.value("photoscroll_http_requests_total", ["route": "unmatched", "status": "404"]) != nil
                && text.value("photoscroll_http_request_duration_seconds_count", ["route": "/photos/:id"]) == 4
        }
        XCTAssertEqual(text.value("photoscroll_http_requests_total", ok), before + 3)
        XCTAssertEqual(text.value("photoscroll_http_requests_total", ["route": "/photos/:id", "status": "404"]), 1)
        XCTAssertEqual(text.value("photoscroll_http_requests_total", ["route": "unmatched", "status": "404"]), 1,
                       "unknown paths share one series instead of one each")
        XCTAssertEqual(text.value("photoscroll_http_request_duration_seconds_count", ["route": "/photos/:id"]), 4)
        XCTAssertNotNil(text.value("photoscroll_http_requests_total", ["route": "/metrics", "status": "200"]),
                        "the earlier scrape was counted too")
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(text.value("photoscroll_http_open_connections")), 1, "this scrape's own connection")
    }

    /// The request runs until the test releases it and the grace is two minutes: the shutdown
    /// is seen waiting for the request, then ending within the test's wait once it is answered.
    func testShutdownLetsASlowRequestFinish() throws {
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let metrics = MetricsRegistry()
        let server = try startServer(metrics: metrics) { router in
            router.get("/slow") { _ in
                started.signal()
                _ = release.wait(timeout: .now() + 300)
                return HTTPResponse(contentType: "text/plain", bytes: Array("finished".utf8))
            }
        }
        let port = server.port
        let answer = Mutex<Result<(Int, String), any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread {
            let result = Result { () throws -> (Int, String) in
                let response = try HTTPClient.get(url: "http://127.0.0.1:\(port)/slow", timeoutSeconds: 60)
                return (response.status, String(decoding: response.body, as: UTF8.self))
            }
            answer.withLock { $0 = result }
            done.signal()
        }.start()
        XCTAssertEqual(started.wait(timeout: .now() + 30), .success)

        let stopped = stopInBackground(server, graceSeconds: 120)
        // Not ending while the request runs is shown for a moment only; ending once it is done is the point.
        XCTAssertEqual(stopped.wait(timeout: .now() + 0.3), .timedOut, "shutdown did not wait for the request")
        release.signal()
        XCTAssertEqual(stopped.wait(timeout: .now() + 30), .success, "shutdown waited on after the request was answered")

        XCTAssertEqual(done.wait(timeout: .now() + 30), .success)
        let (status, body) = try XCTUnwrap(answer.withLock { $0 }).get()
        XCTAssertEqual(status, 200)
        XCTAssertEqual(body, "finished", "the in-flight request was answered in full")
        XCTAssertThrowsError(try HTTPClient.get(url: "http://127.0.0.1:\(port)/healthz", timeoutSeconds: 1),
                             "a stopped server accepts nothing")
    }

    /// The grace is two minutes: a shutdown that ends within the test's wait did not wait it out.
    func testIdleKeepAliveConnectionsDoNotHoldUpShutdown() throws {
        let server = try startServer(metrics: MetricsRegistry())
        let connection = try HTTPClientConnection(host: "127.0.0.1", port: server.port, timeoutSeconds: 30)
        defer { connection.close() }
        try connection.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(try connection.readResponse().status, 200)
        // A browser tab keeps its connection open; docker stop should not wait the whole grace for it.
        let stopped = stopInBackground(server, graceSeconds: 120)
        XCTAssertEqual(stopped.wait(timeout: .now() + 30), .success, "the idle connection held up the shutdown")
        XCTAssertTrue(connection.waitForClose(), "the idle client sees the connection close")
    }

    /// The handler runs until the test ends: a shutdown that returns within the test's wait gave up on it.
    func testShutdownGivesUpOnARequestThatOutlastsTheGrace() throws {
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let server = try startServer(metrics: MetricsRegistry()) { router in
            router.get("/stuck") { _ in
                started.signal()
                _ = release.wait(timeout: .now() + 300)
                return HTTPResponse(contentType: "text/plain", bytes: Array("late".utf8))
            }
        }
        let port = server.port
        Thread { _ = try? HTTPClient.get(url: "http://127.0.0.1:\(port)/stuck", timeoutSeconds: 60) }.start()
        XCTAssertEqual(started.wait(timeout: .now() + 30), .success)
        let shutdownStarted = Date()
        let finished = DispatchSemaphore(value: 0)
        Thread {
            server.shutdown(graceSeconds: 0.3)
            finished.signal()
        }.start()
        // The connections are closed once the grace is over, even while the handler still runs.
        let result = finished.wait(timeout: .now() + 30)
        release.signal()
        XCTAssertEqual(result, .success, "shutdown waited for the stuck request")
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(shutdownStarted), 0.25, "shutdown gave no grace")
        server.wait()
    }

    func testDrainingServerTurnsProbesAwayOnOpenConnections() throws {
        let draining = Draining()
        let server = try startServer(metrics: MetricsRegistry(), draining: draining)
        defer { server.shutdown(graceSeconds: 1); server.wait() }
        let connection = try HTTPClientConnection(host: "127.0.0.1", port: server.port, timeoutSeconds: 5)
        defer { connection.close() }
        try connection.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(try connection.readResponse().status, 200)
        draining.begin()
        try connection.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(try connection.readResponse().status, 503, "a keep-alive client sees the shutdown")
        let (code, message) = HealthCommand.check(url: "http://127.0.0.1:\(server.port)", timeoutSeconds: 5)
        XCTAssertEqual(code, 1)
        XCTAssertTrue(message.contains("503") && message.contains("shutting down"), message)
    }
}
