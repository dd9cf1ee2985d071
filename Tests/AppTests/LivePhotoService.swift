import Foundation
import HTTP
import Observability
@testable import Library
import XCTest
@testable import App

/// A photo service on a folder of photos, over a real socket (the `.live` harness), for a test
/// that asks it as a client would. The test's teardown stops the server, then the service once
/// its ingest has settled, then removes `root`.
struct LivePhotoService {
    let service: PhotoService
    let server: TestClient

    var base: String { "http://127.0.0.1:\(server.port)" }
}

extension XCTestCase {
    /// A new scratch folder for a live service, with an empty `photos` folder in it.
    func makeLiveRoot(_ name: String) throws -> (root: String, photos: String) {
        let root = NSTemporaryDirectory() + "\(name)-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: root + "/photos", withIntermediateDirectories: true)
        return (root, root + "/photos")
    }

    /// Serves `root`/photos (data in `root`/data, no rescans) with one event loop and
    /// `workerThreads`; `change` sets anything else.
    func startLivePhotoService(root: String, workerThreads: Int = 2,
                               change: (inout Configuration) -> Void = { _ in }) throws -> LivePhotoService {
        var configuration = Configuration()
        configuration.photos = root + "/photos"
        configuration.data = root + "/data"
        configuration.rescanSeconds = 0
        change(&configuration)
        let service = try PhotoService(configuration: configuration, logger: .disabled, metrics: MetricsRegistry())
        service.library.refresh()
        var router = Router()
        service.register(on: &router, commentCount: { _ in 0 })
        let server: TestClient
        do {
            server = try TestClient(.live, router: router,
                                    options: TestServerOptions(server: HTTPServerConfiguration(eventLoops: 1, workerThreads: workerThreads)))
        } catch {
            service.stop()
            throw error
        }
        addTeardownBlock {
            server.stop()
            service.stop()
            service.library.waitForIngest(timeoutSeconds: 60)
            try? FileManager.default.removeItem(atPath: root)
        }
        return LivePhotoService(service: service, server: server)
    }
}
