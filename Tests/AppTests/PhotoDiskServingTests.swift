import Foundation
import HTTP
import Imaging
@testable import Library
import Observability
import XCTest
@testable import App

final class PhotoDiskServingTests: XCTestCase {
    func testWithoutAMemoryCacheBuiltTilesAreSentFromDisk() throws {
        let root = NSTemporaryDirectory() + "photo-disk-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/photos", withIntermediateDirectories: true)
        try DemoImage.write(to: root + "/photos/photo1.jpg", width: 600, height: 400)
        var configuration = Configuration()
        configuration.photos = root + "/photos"
        configuration.data = root + "/data"
        configuration.tileCacheMegabytes = 0
        let service = try PhotoService(configuration: configuration, logger: .disabled, metrics: MetricsRegistry())
        defer { service.stop(); service.library.waitForIngest(timeoutSeconds: 60) }
        service.library.refresh()
        var router = Router()
        service.register(on: &router, commentCount: { _ in 0 })
        // Before the pyramid exists: rendered, in memory.
        let early = TestClient(inProcess: router).response(.GET, "/photos/1/tiles/1/1/0.jpg")
        XCTAssertEqual(early.status, .ok)
        XCTAssertNotNil(early.bodyBytes)
        XCTAssertTrue(service.library.waitForIngest(timeoutSeconds: 60))
        let photo = try XCTUnwrap(service.library.photo(1))
        XCTAssertEqual(photo.status, .ready)
        let late = TestClient(inProcess: router).response(.GET, "/photos/1/tiles/1/1/0.jpg")
        guard case .file(let path, _, _) = late.body else { return XCTFail("expected a file body") }
        XCTAssertEqual(path, service.library.builtPath(of: photo, tile: TileCoordinate(z: 1, x: 1, y: 0)))
        XCTAssertTrue(FileManager.default.fileExists(atPath: path))
        XCTAssertEqual(service.library.cache.count, 0)
    }
}
