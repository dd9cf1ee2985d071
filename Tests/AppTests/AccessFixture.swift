@testable import Access
import Foundation
@testable import App
@testable import HTTP
import Imaging
@testable import Library
import Observability
import XCTest

/// A private library of four photos, whole as the server runs it (every route, every rule),
/// answered through the test harness (`TestClient`, in-process unless `setup` says live):
///
/// - folder "trip" (A): `a1`, `a2`; folder "home" (B): `b1`; the root: `r1`
/// - album "picks": `a2`, `b1`
/// - accounts `ana` (owner) and `ben` (member), passwords "correct horse" and "battery staple"
final class AccessFixture: @unchecked Sendable {
    // @unchecked Sendable: set once in init, then only read.
    let root: String
    let application: Application
    let router: Router
    let client: TestClient
    /// Wall-clock and monotonic time of the application (sessions, links' expiry).
    let clock = ManualClock(seconds: 1_900_000_000)
    var access: AccessControl { application.access }
    var store: AccessStore { application.access.store }
    /// Photo ids by title, folder ids by title.
    private(set) var photos: [String: Int] = [:]
    private(set) var folders: [String: Int] = [:]
    /// Album ids by title: "picks" holds `a2` (in trip) and `b1` (in home).
    private(set) var albums: [String: Int] = [:]

    static let ownerPassword = "correct horse"
    static let memberPassword = "battery staple"

    /// `ready`: wait until every photo's pyramid is built (the manifests list ready photos only).
    /// `users`: add ana and ben (a second replica on the same database finds them there).
    /// `renderer`: nil for the real one (libvips), for photos that are real images.
    init(_ setup: TestingSetup = .router, ready: Bool = false, users: Bool = true, renderer: (any PhotoRendering)? = SecretRenderer(), logger: Logger = .disabled,
         configure: (inout Configuration) -> Void = { _ in }) throws {
        root = NSTemporaryDirectory() + "access-\(UUID().uuidString)"
        let files = FileManager.default
        for folder in ["photos/trip", "photos/home", "data", "public"] {
            try files.createDirectory(atPath: root + "/" + folder, withIntermediateDirectories: true)
        }
        for (path, size) in [("trip/a1.jpg", "600x400"), ("trip/a2.jpg", "400x600"), ("home/b1.jpg", "600x400"), ("r1.jpg", "300x300")] {
            // The name in the bytes too: photos of equal bytes would share one pyramid.
            files.createFile(atPath: root + "/photos/" + path, contents: Data(Self.commentJPEG("\n\(size)\n\(path)\n")))
        }
        files.createFile(atPath: root + "/public/index.html", contents: Data("<!doctype html><title>PhotoScroll</title>".utf8))
        var configuration = Configuration()
        configuration.photos = root + "/photos"
        configuration.data = root + "/data"
        configuration.public = root + "/public"
        configuration.access = "private"
        configuration.showLocation = true
        configuration.rescanSeconds = 0
        configuration.ingestConcurrency = 1
        configuration.allowedHosts = "photos.test"
        configure(&configuration)
        let clock = self.clock
        application = try Application(configuration: configuration, logger: logger, parts: Application.Parts(
            renderer: renderer, wallClock: { clock.wall }, clock: { clock.now() },
            passwordParameters: PasswordHash.Parameters(passes: 1, memoryKiB: 64)))
        application.photos.library.refresh()
        if ready { XCTAssertTrue(application.photos.library.waitForIngest(timeoutSeconds: 60)) }
        try application.access.start()
        router = application.makeRouter()
        // The name the fixture's requests give, as a server behind it would list it.
        client = try TestClient(setup, router: router, options: TestServerOptions(server: application.serverConfiguration, host: "photos.test"))
        for photo in application.photos.library.photos { photos[photo.title] = photo.id }
        for folder in application.photos.library.catalog.albums() { folders[folder.title] = folder.id }
        let picks = try application.collection.createAlbum(title: "picks", now: clock.wall)
        _ = try application.collection.addPhotos([photos["a2"]!, photos["b1"]!], to: picks.id, now: clock.wall)
        albums["picks"] = picks.id
        if users {
            try store.addUser(name: "ana", password: Self.ownerPassword, role: .owner)
            try store.addUser(name: "ben", password: Self.memberPassword, role: .member)
        }
    }

    /// A JPEG's start, a comment holding `text`, a scan of one byte and the end.
    static func commentJPEG(_ text: String) -> [UInt8] {
        let comment = Array(text.utf8)
        return [0xFF, 0xD8, 0xFF, 0xFE, UInt8((comment.count + 2) >> 8), UInt8((comment.count + 2) & 0xFF)] + comment
            + [0xFF, 0xDA, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3F, 0x00, 0x00, 0xFF, 0xD9]
    }

    func close() {
        client.stop()
        application.stop()
        application.photos.library.waitForIngest(timeoutSeconds: 60)
        try? FileManager.default.removeItem(atPath: root)
    }

    /// One request through the fixture's client, answered as the server answers it.
    func request(_ method: HTTPMethod, _ target: String, headers: HTTPHeaders = [:], body: [UInt8] = [],
                 remoteAddress: String = "127.0.0.1") -> TestResponse {
        client.answer(method, target, headers: headers, body: body, remoteAddress: remoteAddress)
    }

    /// A request under a session's cookie, with a JSON body and its type when one is given.
    func request(_ method: HTTPMethod, _ target: String, json: String?, cookie: String) -> TestResponse {
        var headers: HTTPHeaders = ["Cookie": cookie]
        if json != nil { headers.add("Content-Type", "application/json") }
        return request(method, target, headers: headers, body: Array((json ?? "").utf8))
    }

    /// A JSON body with its type.
    func post(_ target: String, json: String, cookie: String? = nil, headers: HTTPHeaders = [:], remoteAddress: String = "127.0.0.1") -> TestResponse {
        var fields = headers
        fields.add("Content-Type", "application/json")
        if let cookie { fields.add("Cookie", cookie) }
        return request(.POST, target, headers: fields, body: Array(json.utf8), remoteAddress: remoteAddress)
    }

    /// Signs in; the `Cookie` value to send after.
    func signIn(_ name: String, _ password: String) throws -> String {
        let answer = post("/session", json: "{\"username\":\"\(name)\",\"password\":\"\(password)\"}")
        XCTAssertEqual(answer.status, .noContent, answer.text)
        return try XCTUnwrap(Self.cookie(answer))
    }

    /// `name=value` of the response's Set-Cookie.
    static func cookie(_ response: TestResponse) -> String? {
        response.headers["Set-Cookie"]?.split(separator: ";").first.map(String.init)
    }

    /// Makes a share link as `ana`.
    func share(_ request: ShareRequest) throws -> Share {
        try store.createShare(request, by: try XCTUnwrap(try store.user(named: "ana")))
    }
}
