import Foundation
import HTTP
import Imaging
@testable import Library
import Observability
import SQL
import XCTest
@testable import Access
@testable import App

/// A live server with the photo and upload routes over a temporary photos folder, real libvips,
/// SQLite, and a clock the test moves.
// @unchecked Sendable: set up once in `init`; afterwards only read (the clock has its own lock).
final class UploadTestServer: @unchecked Sendable {
    let root: String
    let photos: String
    let data: String
    let service: PhotoService
    let uploads: UploadService
    let manage: ManageRoutes
    let collection: any PhotoCollections
    let client: TestClient
    let database: SQLDatabase
    /// The uploads' and the trash's unix seconds.
    private let clock = ManualClock(seconds: 1_800_000_000)

    var base: String { client.base }
    var port: Int { client.port }

    init(limits: UploadLimits = UploadLimits(maxBytes: 64 << 20, expirySeconds: 3600, perClient: 100), maxImagePixels: Int = 50_000_000,
         photosBefore: (String) throws -> Void = { _ in }) throws {
        root = NSTemporaryDirectory() + "uploads-\(UUID().uuidString)"
        photos = root + "/photos"
        data = root + "/data"
        try FileManager.default.createDirectory(atPath: photos, withIntermediateDirectories: true)
        try photosBefore(photos)
        var configuration = Configuration()
        configuration.photos = photos
        configuration.data = data
        configuration.rescanSeconds = 0
        configuration.maxImagePixels = maxImagePixels
        service = try PhotoService(configuration: configuration, logger: .disabled, metrics: MetricsRegistry())
        service.library.refresh()
        database = try SQLDatabase(.sqlite(path: data + "/comments.sqlite"))
        let clock = self.clock
        uploads = try UploadService(database: database, dataDirectory: data, library: service.library, limits: limits,
                                    clientAddress: ClientAddress(trustedProxies: ""), logger: .disabled, now: { clock.wall })
        collection = try PhotoLibrary.openCollections(database: database)
        manage = ManageRoutes(library: service.library, store: collection, permission: uploads.permission, trashDays: 30, logger: .disabled,
                              now: { clock.wall })
        var router = Router()
        service.register(on: &router, commentCount: { _ in 0 })
        UploadRoutes(service: uploads).register(on: &router)
        manage.register(on: &router)
        client = try TestClient(.live, router: router)
    }

    /// Moves the uploads' clock on.
    func advance(seconds: Int) { clock.advance(by: Double(seconds)) }

    func stop() {
        client.stop()
        service.stop()
        service.library.waitForIngest(timeoutSeconds: 60)
        database.close()
        try? FileManager.default.removeItem(atPath: root)
    }

    /// Every regular file under the photos folder, relative, sorted.
    func photoFiles() -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: photos)
        var files: [String] = []
        while let path = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: photos + "/" + path, isDirectory: &isDirectory), !isDirectory.boolValue { files.append(path) }
        }
        return files.sorted()
    }

    /// A JSON request; the answer's status and body object.
    func json(_ method: HTTPMethod, _ target: String, _ body: Any? = nil) throws -> (status: Int, object: [String: Any]) {
        let bytes = try body.map { [UInt8](try JSONSerialization.data(withJSONObject: $0)) } ?? []
        let answer = try HTTPClient.request(method, url: base + target, headers: ["Content-Type": "application/json"], body: bytes,
                                            timeoutSeconds: 30)
        return (answer.status, (try? JSONSerialization.jsonObject(with: Data(answer.body))) as? [String: Any] ?? [:])
    }

    /// The id of the listed photo at `relativePath`, or nil.
    func id(_ relativePath: String) -> Int? { service.library.catalog.photo(relativePath: relativePath)?.id }

    /// Files waiting in the data folder's uploads folder.
    func waitingUploads() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: data + "/uploads")) ?? []).sorted()
    }

    /// A tus request with `Tus-Resumable` and `fields`.
    func tus(_ method: HTTPMethod, _ target: String, _ fields: [(String, String)] = [], body: [UInt8] = []) throws -> HTTPClientResponse {
        var headers: HTTPHeaders = ["Tus-Resumable": "1.0.0"]
        for (name, value) in fields { headers.add(name, value) }
        if method == .PATCH || (method == .POST && !body.isEmpty) { headers.add("Content-Type", "application/offset+octet-stream") }
        return try HTTPClient.request(method, url: base + target, headers: headers, body: body, timeoutSeconds: 30)
    }

    /// Creates an upload of `length` bytes named `name`; returns its path (`/uploads/…`).
    func create(length: Int, name: String = "photo.jpg", extra: [(String, String)] = []) throws -> String {
        let answer = try tus(.POST, "/uploads/", [("Upload-Length", String(length)),
                                                  ("Upload-Metadata", "filename " + Data(name.utf8).base64EncodedString())] + extra)
        XCTAssertEqual(answer.status, 201, answer.text)
        return try XCTUnwrap(answer.headers["Location"])
    }
}


extension HTTPClientResponse {
    /// The body as text, for failure messages.
    var text: String { String(decoding: body, as: UTF8.self) }
}
