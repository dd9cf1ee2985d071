import XCTest
@testable import Observability

final class MetricsTests: XCTestCase {
    func testPrometheusTextHasHelpTypeAndSeries() {
        let registry = MetricsRegistry()
        let requests = registry.counter("demo_requests_total", help: "Requests.")
        requests.increment(by: 1, [("route", "/photos"), ("status", "200")])
        requests.increment(by: 2, [("route", "/photos"), ("status", "200")])
        let latency = registry.histogram("demo_seconds", help: "Latency.", buckets: [0.1, 1])
        latency.observe(0.05)
        latency.observe(0.5)
        latency.observe(5)
        let text = registry.render()
        XCTAssertTrue(text.contains("# TYPE demo_requests_total counter\n"))
        XCTAssertTrue(text.contains("demo_requests_total{route=\"/photos\",status=\"200\"} 3\n"))
        XCTAssertTrue(text.contains("demo_seconds_bucket{le=\"0.1\"} 1\n"))
        XCTAssertTrue(text.contains("demo_seconds_bucket{le=\"1\"} 2\n"))
        XCTAssertTrue(text.contains("demo_seconds_bucket{le=\"+Inf\"} 3\n"))
        XCTAssertTrue(text.contains("demo_seconds_count 3\n"))
    }

    func testJSONLogLinesEscapeAndCarryMetadata() {
        let line = StreamLogSink.json(LogRecord(level: .info, label: "http", message: "say \"hi\"\n", metadata: [("status", "200")]))
        XCTAssertTrue(line.contains(#""message":"say \"hi\"\n""#))
        XCTAssertTrue(line.contains(#""status":"200""#))
        let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String]
        XCTAssertEqual(object?["level"], "info")
    }
}

import Foundation
