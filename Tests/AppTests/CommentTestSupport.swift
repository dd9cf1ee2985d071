import Comments
import Foundation
import HTTP
import Observability
import TestSupport
import XCTest
@testable import App

/// A comment service on an in-memory store with a hand-moved rate-limit clock, and a router holding its routes.
final class CommentFixture: Sendable {
    let store: CommentStore
    let metrics = MetricsRegistry()
    let service: CommentService
    let router: Router
    /// Answers in-process; CommentRouteTests also serves `router` live.
    let client: TestClient
    let clock = ManualClock(seconds: 1000)
    /// Photos 1…5 exist.
    static let photos = 1...5

    init(perMinute: Int = 0, adminToken: String = "", trustedProxies: String = "", store: CommentStore = MemoryCommentStore(),
         heartbeatSeconds: Double = 15) {
        var configuration = Configuration()
        configuration.commentsPerMinute = perMinute
        configuration.adminToken = adminToken
        configuration.trustedProxies = trustedProxies
        self.store = store
        let clock = self.clock
        service = CommentService(store: store, configuration: configuration, logger: .disabled, metrics: metrics,
                                 photoExists: { CommentFixture.photos.contains($0) },
                                 rateLimitClock: { clock.now() }, heartbeatSeconds: heartbeatSeconds)
        var router = Router()
        service.register(on: &router)
        self.router = router
        client = TestClient(inProcess: router)
    }

    deinit { service.stop() }

    func advance(seconds: Double) { clock.advance(by: seconds) }

    func respond(_ method: HTTPMethod, _ target: String, headers: HTTPHeaders = [:], body: [UInt8] = [],
                 from remoteAddress: String = "192.0.2.1") -> HTTPResponse {
        client.response(method, target, headers: headers, body: body, remoteAddress: remoteAddress)
    }

    func postJSON(_ photo: Int, _ json: String, from remoteAddress: String = "192.0.2.1", forwardedFor: String? = nil) -> HTTPResponse {
        var headers: HTTPHeaders = ["Content-Type": "application/json"]
        if let forwardedFor { headers.add("X-Forwarded-For", forwardedFor) }
        return respond(.POST, "/photos/\(photo)/comments", headers: headers, body: Array(json.utf8), from: remoteAddress)
    }
}

extension HTTPResponse {
    var text: String { String(decoding: bodyBytes ?? [], as: UTF8.self) }

    /// The body as a JSON object (problem details or a comment).
    var object: [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(bodyBytes ?? []))) as? [String: Any] ?? [:]
    }
}

/// A `.stream` body's far end in memory: records what is written and lets a test hang up.
// @unchecked Sendable: its state is guarded by `lock`.
final class RecordingStream: ResponseStream, @unchecked Sendable {
    private let lock = NSLock()
    private var bytes: [UInt8] = []
    private var closed = false
    private var callbacks: [@Sendable () -> Void] = []

    @discardableResult
    func write(_ bytes: [UInt8]) -> Bool {
        lock.withLock {
            guard !closed else { return false }
            self.bytes += bytes
            return true
        }
    }

    func close() { hangUp() }

    var isClosed: Bool { lock.withLock { closed } }

    func onClose(_ callback: @escaping @Sendable () -> Void) {
        let runNow = lock.withLock { () -> Bool in
            if closed { return true }
            callbacks.append(callback)
            return false
        }
        if runNow { callback() }
    }

    /// The client goes away.
    func hangUp() {
        let toRun = lock.withLock { () -> [@Sendable () -> Void] in
            guard !closed else { return [] }
            closed = true
            defer { callbacks = [] }
            return callbacks
        }
        toRun.forEach { $0() }
    }

    var text: String { lock.withLock { String(decoding: bytes, as: UTF8.self) } }

    /// Waits until the recorded text satisfies `condition`, up to `timeout` seconds.
    func waitFor(timeout: Double = 30, _ condition: (String) -> Bool) -> Bool {
        eventually(timeout: timeout) { condition(text) }
    }

    /// Ids of the `event: comment` frames received, in order.
    var commentEventIDs: [Int] {
        text.components(separatedBy: "\n\n").compactMap { frame in
            guard frame.contains("event: comment") else { return nil }
            return frame.split(separator: "\n").first { $0.hasPrefix("id: ") }.flatMap { Int($0.dropFirst(4)) }
        }
    }
}
