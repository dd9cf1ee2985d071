import Foundation
import HTTP
import Imaging
import Library
import Observability
import Synchronization
import XCTest
@testable import App

/// The application's work in lanes of its own, renders capped, and readiness that says when
/// the server falls behind.
final class WorkLanesTests: XCTestCase {
    func testReadyzAnswers503NamingTheLanesThatAreBehind() throws {
        let behind = Mutex<[LaneLoad]>([])
        let metrics = MetricsRegistry()
        let load = LaneLoad(lane: WorkLanes.images, threads: 2, running: 2, queued: 812, oldestWaitSeconds: 14.25)
        var router = Router()
        OperationsRoutes.register(on: &router, metrics: metrics, isReady: { true }, workload: { [load] },
                                  saturation: { behind.withLock { $0 } })
        XCTAssertEqual(Responder(router: router).respond(to: HTTPRequest(method: .GET, target: "/readyz")).status, .ok)
        behind.withLock { $0 = [load] }
        let saturated = Responder(router: router).respond(to: HTTPRequest(method: .GET, target: "/readyz"))
        XCTAssertEqual(saturated.status, .serviceUnavailable)
        XCTAssertEqual(saturated.headers["Retry-After"], "1")
        let detail = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(saturated.bodyBytes ?? [])) as? [String: Any])?["detail"] as? String)
        XCTAssertEqual(detail, "The server is saturated: images (812 waiting, the oldest for 14.2 s).")
        let text = String(decoding: Responder(router: router).respond(to: HTTPRequest(method: .GET, target: "/metrics")).bodyBytes ?? [], as: UTF8.self)
        XCTAssertTrue(text.contains("photoscroll_worker_queue_length{lane=\"images\"} 812"), text)
        XCTAssertTrue(text.contains("photoscroll_worker_busy_threads{lane=\"images\"} 2"), text)
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
