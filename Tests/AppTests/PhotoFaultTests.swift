import Foundation
import HTTP
import Imaging
@testable import Library
import Observability
import XCTest
@testable import App

/// What clients and the log see when a photo's file goes wrong under the server.
final class PhotoFaultTests: XCTestCase {
    func testADeletedPhotoFailsItsTilesWithoutServerPathsAndWithOneWarning() throws {
        let root = NSTemporaryDirectory() + "photo-faults-\(UUID().uuidString)"
        let photos = root + "/photos"
        try FileManager.default.createDirectory(atPath: photos, withIntermediateDirectories: true)
        try DemoImage.write(to: photos + "/photo1.jpg", width: 2000, height: 1500, seed: 9)
        var configuration = Configuration()
        configuration.photos = photos
        configuration.data = root + "/data"
        configuration.rescanSeconds = 0
        configuration.tileCacheMegabytes = 0
        try FileManager.default.createDirectory(atPath: configuration.data, withIntermediateDirectories: true)
        let logs = MemoryLogSink()
        let service = try PhotoService(configuration: configuration, logger: Logger(label: "library", level: .info, sink: logs),
                                       metrics: MetricsRegistry())
        defer {
            service.stop()
            service.library.waitForIngest(timeoutSeconds: 60)
            try? FileManager.default.removeItem(atPath: root)
        }
        _ = try service.library.catalog.scan()
        var router = Router()
        service.register(on: &router, commentCount: { _ in 0 })
        let version = try XCTUnwrap(service.library.photo(1)).version

        // The file goes before its pyramid is built: every tile is rendered from it, and fails.
        try FileManager.default.removeItem(atPath: photos + "/photo1.jpg")
        var details: Set<String> = []
        for x in 0..<4 {
            for y in 0..<3 {
                let response = TestClient(inProcess: router).response(.GET, "/photos/1/tiles/3/\(x)/\(y).jpg?v=\(version)")
                XCTAssertEqual(response.status, .notFound)
                let body = String(decoding: response.bodyBytes ?? [], as: UTF8.self)
                XCTAssertFalse(body.contains(root), "a server path in \(body)")
                details.insert(body)
            }
        }
        XCTAssertTrue(details.allSatisfy { $0.contains("photo1.jpg") }, "\(details)")
        let warnings = logs.all.filter { $0.level == .warning && $0.message.hasPrefix("cannot render") }
        XCTAssertEqual(warnings.count, 1, "\(warnings.map(\.message))")
        // The log keeps the whole story, path included.
        XCTAssertTrue(warnings.first?.metadata.contains { $0.0 == "file" && $0.1 == photos + "/photo1.jpg" } ?? false)
    }

    func testServerPathsInAPhotosErrorAreReplaced() {
        let photo = Photo(id: 3, relativePath: "trips/p3.jpg", sourcePath: "/srv/photos/trips/p3.jpg", title: "p3", width: 0, height: 0,
                          version: "abc", status: .failed)
        XCTAssertEqual(ClientText.photoError("A file could not be read or written (/srv/photos/trips/p3.jpg: No such file or directory).", of: photo),
                       "A file could not be read or written (trips/p3.jpg: No such file or directory).")
        XCTAssertEqual(ClientText.photoError("cannot create /var/lib/photoscroll/tiles/.abc.partial-1-2: No space left on device", of: photo),
                       "cannot create a file on the server: No space left on device")
        XCTAssertEqual(ClientText.withoutServerPaths("libvips: unable to open \"/tmp/x/y.v\"."), "libvips: unable to open \"a file on the server\".")
        XCTAssertEqual(ClientText.withoutServerPaths("level 3 has 2/4 tiles"), "level 3 has 2/4 tiles")
    }
}
