@testable import App
import Foundation
import HTTP
import Imaging
@testable import Library
import Observability
import POSIX
import Synchronization
import XCTest

/// The application's work in lanes of its own, renders capped, and readiness that says when
/// the server falls behind.
final class WorkLanesTests: XCTestCase {
    /// A lane behind (one client flooding renders) shows in /readyz's detail and in /metrics,
    /// and readiness stays 200: it used to answer 503, taking every replica out of a load
    /// balancer for one abusive client. Only a catalog lane that starts nothing is 503.
    func testReadyzNamesBusyLanesButStaysReadyUnlessListingsCannotBeAnswered() throws {
        let behind = Mutex<[LaneLoad]>([])
        let catalog = Mutex(LaneLoad(lane: WorkLanes.catalog, threads: 2, running: 1, queued: 0, oldestWaitSeconds: 0))
        let metrics = MetricsRegistry()
        let load = LaneLoad(lane: WorkLanes.renders, threads: 1, running: 1, queued: 30, oldestWaitSeconds: 14.25, stalledSeconds: 0.5,
                            costInFlight: 75_000_000, maxCostInFlight: 100_000_000, refusedForClient: 7, refusedForLane: 2, withdrawn: 3, expired: 4)
        var router = Router()
        OperationsRoutes.register(on: &router, metrics: metrics, isReady: { true }, workload: { [load, catalog.withLock { $0 }] },
                                  saturation: { behind.withLock { $0 } })
        func readyz() throws -> (HTTPStatus, [String: Any]) {
            let response = TestClient(inProcess: router).response(.GET, "/readyz")
            return (response.status, try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(response.bodyBytes ?? [])) as? [String: Any]))
        }
        XCTAssertEqual(try readyz().0, .ok)
        XCTAssertEqual(try readyz().1["status"] as? String, "ready")
        behind.withLock { $0 = [load] }
        let (status, body) = try readyz()
        XCTAssertEqual(status, .ok, "a busy lane is no reason to take the server out of the balancer")
        XCTAssertEqual(body["status"] as? String, "busy")
        XCTAssertEqual(body["detail"] as? String, "Busy: renders (30 waiting, the oldest for 14.2 s); everything else is answered as usual.")
        let text = String(decoding: TestClient(inProcess: router).response(.GET, "/metrics").bodyBytes ?? [], as: UTF8.self)
        for line in ["photoscroll_worker_queue_length{lane=\"renders\"} 30", "photoscroll_worker_busy_threads{lane=\"renders\"} 1",
                     "photoscroll_worker_cost_in_flight{lane=\"renders\"} 75000000", "photoscroll_worker_cost_budget{lane=\"renders\"} 100000000",
                     "photoscroll_worker_refused_total{lane=\"renders\",reason=\"client\"} 7",
                     "photoscroll_worker_refused_total{lane=\"renders\",reason=\"lane\"} 2",
                     "photoscroll_worker_withdrawn_total{lane=\"renders\"} 3",
                     "photoscroll_worker_refused_total{lane=\"renders\",reason=\"wait\"} 4", "photoscroll_worker_stalled_seconds{lane=\"renders\"} 0.5"] {
            XCTAssertTrue(text.contains(line), "\(line) in \(text)")
        }
        // Listings that truly cannot be answered: the catalog lane has started nothing for 2 s.
        catalog.withLock { $0 = LaneLoad(lane: WorkLanes.catalog, threads: 2, running: 2, queued: 5, oldestWaitSeconds: 3, stalledSeconds: 2.5) }
        XCTAssertEqual(try readyz().0, .serviceUnavailable)
        XCTAssertEqual(try readyz().1["detail"] as? String, "Photo listings cannot be answered: 5 waiting, and none started for 2.5 s.")
    }

    func testCatalogCommentsAndImagesRunInLanesOfTheirOwn() throws {
        let root = NSTemporaryDirectory() + "lanes-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: root + "/photos", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        var configuration = Configuration()
        configuration.photos = root + "/photos"
        configuration.data = root + "/data"
        configuration.rescanSeconds = 0
        let application = try Application(configuration: configuration, logger: .disabled)
        defer { application.stop() }
        let lanes = Dictionary(application.makeRouter().routes.map { ("\($0.method) \($0.pattern)", $0.lane) }, uniquingKeysWith: { a, _ in a })
        XCTAssertEqual(lanes["GET /photos/:id/tiles/:z/:x/:y.jpg"], WorkLanes.images)
        XCTAssertEqual(lanes["GET /photos/:id/thumbnail.jpg"], WorkLanes.images)
        XCTAssertEqual(lanes["GET /photos"], WorkLanes.catalog)
        XCTAssertEqual(lanes["GET /photos/:id"], WorkLanes.catalog)
        XCTAssertEqual(lanes["POST /photos/:id/comments"], WorkLanes.comments)
        XCTAssertEqual(lanes["GET /photos/:id/comments"], WorkLanes.comments)
        let threads = application.serverConfiguration.lanes
        XCTAssertEqual(threads[WorkLanes.catalog], 2)
        XCTAssertEqual(threads[WorkLanes.comments], 2)
        XCTAssertEqual(threads[WorkLanes.images], max(2, System.coreCount))
        XCTAssertEqual(threads[WorkLanes.renders], max(1, System.coreCount / 2))
        XCTAssertEqual(application.serverConfiguration.laneBudgets[WorkLanes.renders],
                       LaneBudget(maxQueuedPerClient: 4, maxQueued: 32, maxCostInFlight: 100_000_000, maxWaitSeconds: 30))
        XCTAssertEqual(application.serverConfiguration.limits.maxConnectionsPerAddress, 256)
    }

    /// A tile of a photo whose pyramid is not built yet is a render: it waits its turn per photo
    /// and per client. A built photo's tiles are read from disk without caps.
    func testOnDemandRendersAreCappedPerPhotoAndPerClient() throws {
        let root = NSTemporaryDirectory() + "caps-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: root + "/photos", withIntermediateDirectories: true)
        try DemoImage.write(to: root + "/photos/photo1.jpg", width: 1200, height: 800, seed: 3)
        var configuration = Configuration()
        configuration.photos = root + "/photos"
        configuration.data = root + "/data"
        configuration.rescanSeconds = 0
        configuration.rendersPerPhoto = 3
        configuration.rendersPerClient = 5
        try FileManager.default.createDirectory(atPath: configuration.data, withIntermediateDirectories: true)
        let service = try PhotoService(configuration: configuration, logger: .disabled, metrics: MetricsRegistry())
        defer {
            service.stop()
            service.library.waitForIngest(timeoutSeconds: 60)
            try? FileManager.default.removeItem(atPath: root)
        }
        _ = try service.library.catalog.scan()
        XCTAssertEqual(service.library.photo(1)?.status, .processing)
        var router = Router()
        service.register(on: &router, commentCount: { _ in 0 })
        func reply(_ target: String) throws -> Reply {
            var request = HTTPRequest(method: .GET, target: target, remoteAddress: "192.0.2.7")
            guard case .found(let route, let parameters) = router.match(.GET, path: request.path) else { throw HTTPError(.notFound, target) }
            request.parameters = parameters
            return try route.handler(request)
        }
        guard case .offloadCapped(let caps, _) = try reply("/photos/1/tiles/2/1/1.jpg") else { return XCTFail("not capped") }
        XCTAssertEqual(Set(caps), [WorkCap(key: "photo 1", limit: 3), WorkCap(key: "client 192.0.2.7", limit: 5)])

        _ = service.library.buildPyramid(try XCTUnwrap(service.library.photo(1)))
        XCTAssertEqual(service.library.photo(1)?.status, .ready)
        guard case .offload = try reply("/photos/1/tiles/2/1/0.jpg") else { return XCTFail("a built tile is read without caps") }
    }
}
