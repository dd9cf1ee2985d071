import Foundation
import HTTP
import Observability
import XCTest
@testable import App

/// Each event loop counts its requests in memory of its own and adds them to the shared
/// series in batches; a render must show exactly what direct recording shows.
final class LoopRequestMetricsTests: XCTestCase {
    private func request(_ n: Int) -> CompletedRequest {
        let routes = ["/photos/:id/tiles/:z/:x/:y.jpg", "/photos/:id", ""]
        let statuses: [HTTPStatus] = [.ok, .notModified, .notFound]
        return CompletedRequest(method: n % 7 == 0 ? .HEAD : .GET, path: "/x", routePattern: routes[n % 3], status: statuses[n % 4 == 0 ? 1 : n % 5 == 0 ? 2 : 0],
                                bytesSent: 100, durationSeconds: [0.0001, 0.003, 0.07, 0.4, 20][n % 5], remoteAddress: "127.0.0.1")
    }

    /// Two renders alike: every line the same, except that sums (added in another order) may
    /// differ in their last digits.
    private func assertSame(_ batched: String, _ direct: String, _ message: String = "", line: UInt = #line) {
        let a = batched.split(separator: "\n"), b = direct.split(separator: "\n")
        XCTAssertEqual(a.count, b.count, message, line: line)
        for (x, y) in zip(a, b) where x != y {
            let xs = x.split(separator: " "), ys = y.split(separator: " ")
            guard xs.count == 2, ys.count == 2, xs[0] == ys[0], xs[0].contains("_sum{"), let u = Double(xs[1]), let v = Double(ys[1]) else {
                XCTFail("\(x) ≠ \(y) \(message)", line: line)
                continue
            }
            XCTAssertEqual(u, v, accuracy: 1e-9 * max(1, abs(v)), message, line: line)
        }
    }

    func testARenderShowsWhatDirectRecordingShows() {
        let direct = MetricsRegistry(), batched = MetricsRegistry()
        let observer = HTTPMetricsObserver(metrics: direct)
        let loop = HTTPMetricsObserver(metrics: batched).forEventLoop()
        for n in 0..<1000 {
            observer.requestCompleted(request(n))
            loop.requestCompleted(request(n))
            // Renders in between, on batch boundaries and off them, lose and double nothing.
            if n % 97 == 0 || n == 511 { assertSame(batched.render(), direct.render(), "after \(n + 1)") }
        }
        assertSame(batched.render(), direct.render())
        XCTAssertFalse(direct.render().isEmpty)
    }

    func testCountsArriveInBatchesWithoutARender() {
        let registry = MetricsRegistry()
        let base = HTTPMetricsObserver(metrics: registry)
        let loop = base.forEventLoop()
        let labels = [("method", "GET"), ("route", "/r"), ("status", "200")]
        func complete() {
            loop.requestCompleted(CompletedRequest(method: .GET, path: "/r", routePattern: "/r", status: .ok, bytesSent: 1,
                                                   durationSeconds: 0.001, remoteAddress: "127.0.0.1"))
        }
        for _ in 0..<(LoopRequestMetrics.batch - 1) { complete() }
        XCTAssertEqual(base.requests.value(labels), 0, "held by the loop until the batch is full")
        complete()
        XCTAssertEqual(base.requests.value(labels), Double(LoopRequestMetrics.batch))
        XCTAssertEqual(base.latency.count([("route", "/r")]), UInt64(LoopRequestMetrics.batch))
    }

    func testMoreKeysThanRememberedAreStillCounted() {
        let registry = MetricsRegistry()
        let base = HTTPMetricsObserver(metrics: registry)
        let loop = base.forEventLoop()
        for n in 0..<(RequestSeriesCache.limit + 20) {
            loop.requestCompleted(CompletedRequest(method: HTTPMethod("M\(n)"), path: "/", routePattern: "", status: .notImplemented,
                                                   bytesSent: 1, durationSeconds: 0.001, remoteAddress: "127.0.0.1"))
        }
        _ = registry.render()
        let total = (0..<(RequestSeriesCache.limit + 20)).map {
            base.requests.value([("method", "M\($0)"), ("route", "unmatched"), ("status", "501")])
        }.reduce(0, +)
        XCTAssertEqual(total, Double(RequestSeriesCache.limit + 20))
    }

    func testTwoLoopsAndAScraperAtOnce() {
        let registry = MetricsRegistry()
        let base = HTTPMetricsObserver(metrics: registry)
        let loops = [base.forEventLoop(), base.forEventLoop()]
        let perLoop = 5000
        DispatchQueue.concurrentPerform(iterations: 3) { worker in
            if worker == 2 {
                for _ in 0..<50 { _ = registry.render() }
                return
            }
            for _ in 0..<perLoop {
                loops[worker].requestCompleted(CompletedRequest(method: .GET, path: "/t", routePattern: "/t", status: .ok, bytesSent: 1,
                                                                durationSeconds: 0.002, remoteAddress: "127.0.0.1"))
            }
        }
        _ = registry.render()
        XCTAssertEqual(base.requests.value([("method", "GET"), ("route", "/t"), ("status", "200")]), Double(2 * perLoop))
        XCTAssertEqual(base.latency.count([("route", "/t")]), UInt64(2 * perLoop))
    }
}
