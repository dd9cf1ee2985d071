import XCTest
@testable import Observability

/// Series handles resolved ahead of time must land in the same series as labelled updates.
final class MetricSeriesTests: XCTestCase {
    func testCounterHandleAndLabelledIncrementsShareOneSeries() {
        let registry = MetricsRegistry()
        let requests = registry.counter("demo_requests_total", help: "Requests.")
        let ok = requests.series([("route", "/photos"), ("status", "200")])
        ok.increment()
        ok.increment(by: 2)
        requests.increment(by: 1, [("route", "/photos"), ("status", "200")])
        requests.series([("route", "/photos"), ("status", "404")]).increment()
        XCTAssertEqual(requests.value([("route", "/photos"), ("status", "200")]), 4)
        XCTAssertEqual(requests.value([("route", "/photos"), ("status", "404")]), 1)
        let text = registry.render()
        XCTAssertTrue(text.contains("demo_requests_total{route=\"/photos\",status=\"200\"} 4\n"))
        XCTAssertTrue(text.contains("demo_requests_total{route=\"/photos\",status=\"404\"} 1\n"))
    }

    func testHistogramHandleFillsBucketsSumAndCount() {
        let registry = MetricsRegistry()
        let latency = registry.histogram("demo_seconds", help: "Latency.", buckets: [0.1, 1])
        let photos = latency.series([("route", "/photos")])
        photos.observe(0.05)
        photos.observe(0.5)
        latency.observe(5, [("route", "/photos")])
        XCTAssertEqual(latency.count([("route", "/photos")]), 3)
        let text = registry.render()
        XCTAssertTrue(text.contains("demo_seconds_bucket{route=\"/photos\",le=\"0.1\"} 1\n"))
        XCTAssertTrue(text.contains("demo_seconds_bucket{route=\"/photos\",le=\"1\"} 2\n"))
        XCTAssertTrue(text.contains("demo_seconds_bucket{route=\"/photos\",le=\"+Inf\"} 3\n"))
        XCTAssertTrue(text.contains("demo_seconds_sum{route=\"/photos\"} 5.55\n"))
    }

    func testHandlesUpdatedFromManyThreadsLoseNothing() {
        let registry = MetricsRegistry()
        let counter = registry.counter("demo_total", help: "Demo.")
        let series = counter.series([("loop", "any")])
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<1000 { series.increment() }
        }
        XCTAssertEqual(counter.value([("loop", "any")]), 8000)
    }
}
