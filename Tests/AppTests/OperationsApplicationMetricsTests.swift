import Foundation
import HTTP
import Observability
import XCTest
@testable import App

final class OperationsApplicationMetricsTests: XCTestCase {
    /// Every family docs/deploy.md promises, registered by the layers that own them.
    static let documented = [
        "photoscroll_http_requests_total", "photoscroll_http_request_duration_seconds", "photoscroll_http_open_connections",
        "photoscroll_tile_cache_hits_total", "photoscroll_tile_cache_misses_total", "photoscroll_tile_cache_bytes",
        "photoscroll_ingest_queue_length", "photoscroll_ingest_stage_photos", "photoscroll_ingest_stage_queue_length",
        "photoscroll_ingest_duration_seconds", "photoscroll_ingest_failures_total",
        "photoscroll_photos", "photoscroll_photos_unexamined", "photoscroll_library_degraded",
        "photoscroll_library_watched_folders", "photoscroll_library_scans_total", "photoscroll_library_scan_duration_seconds",
        "photoscroll_photo_streams", "photoscroll_comment_posts_total", "photoscroll_comment_streams",
        "photoscroll_comment_commit_seconds", "photoscroll_comment_commit_batch_size", "photoscroll_comment_feed_connected",
        "photoscroll_pyramids_built_total", "photoscroll_pyramid_builds_elsewhere_total",
        "photoscroll_worker_queue_length", "photoscroll_worker_busy_threads", "photoscroll_worker_oldest_wait_seconds",
        "photoscroll_worker_stalled_seconds", "photoscroll_worker_cost_in_flight", "photoscroll_worker_cost_budget",
        "photoscroll_worker_refused_total", "photoscroll_worker_withdrawn_total",
        "process_resident_memory_bytes", "process_virtual_memory_bytes", "process_open_fds", "process_max_fds",
        "process_cpu_seconds_total", "process_threads", "process_start_time_seconds", "photoscroll_build_info",
    ]

    func testTheApplicationsMetricsHaveEveryDocumentedFamily() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("photoscroll-metrics-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("photos"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var configuration = Configuration()
        configuration.photos = folder.appendingPathComponent("photos").path
        configuration.data = folder.appendingPathComponent("data").path
        configuration.rescanSeconds = 0
        let application = try Application(configuration: configuration, logger: .disabled)
        defer { application.stop() }
        _ = HTTPMetricsObserver(metrics: application.metrics)
        let response = TestClient(inProcess: application.makeRouter()).response(.GET, "/metrics", headers: ["Host": "localhost:8080"])
        XCTAssertEqual(response.status, .ok)
        let text = try PrometheusText(String(decoding: try XCTUnwrap(response.bodyBytes), as: UTF8.self))
        try text.validate()
        let missing = Self.documented.filter { text.types[$0] == nil }
        XCTAssertEqual(missing, [], "documented but not registered")
        let undocumented = text.types.keys.filter { !Self.documented.contains($0) }.sorted()
        XCTAssertEqual(undocumented, [], "registered but not in docs/deploy.md")
    }
}
