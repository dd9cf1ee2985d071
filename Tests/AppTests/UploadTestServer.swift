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


/// Fixture photos made with libvips at test time.
enum UploadFixtures {
    /// A JPEG of `width`×`height` with noise, so each seed's bytes differ.
    static func jpeg(width: Int = 320, height: Int = 240, seed: Int = 1) throws -> [UInt8] {
        let path = NSTemporaryDirectory() + "fixture-\(UUID().uuidString).jpg"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try DemoImage.write(to: path, width: width, height: height, seed: seed)
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// A PNG whose header promises `width`×`height` pixels over a few hundred bytes: a bomb.
    static func bombPNG(width: UInt32 = 100_000, height: UInt32 = 100_000) -> [UInt8] {
        func be(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xff), UInt8(v >> 8 & 0xff), UInt8(v & 0xff)] }
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let typed = Array(type.utf8) + data
            return be(UInt32(data.count)) + typed + be(crc32(typed))
        }
        let header = be(width) + be(height) + [8, 0, 0, 0, 0]  // 8-bit greyscale
        // A few rows of zeros, deflated (stored block): enough for a decoder to start, far from all.
        let raw = [UInt8](repeating: 0, count: 64)
        let stored: [UInt8] = [0x78, 0x01, 0x01, UInt8(raw.count & 0xff), UInt8(raw.count >> 8), ~UInt8(raw.count & 0xff), ~UInt8(raw.count >> 8)] + raw
            + be(adler32(raw))
        return [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] + chunk("IHDR", header) + chunk("IDAT", stored) + chunk("IEND", [])
    }

    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xffff_ffff
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xedb8_8320 : crc >> 1 }
        }
        return ~crc
    }

    private static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        return b << 16 | a
    }
}

extension HTTPClientResponse {
    /// The body as text, for failure messages.
    var text: String { String(decoding: body, as: UTF8.self) }
}
