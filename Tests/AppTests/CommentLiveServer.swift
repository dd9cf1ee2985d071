import Comments
import Foundation
import HTTP
import Observability
import TestSupport
import XCTest
@testable import App

/// A real HTTP server on a loopback port 0 serving only the comment routes, over the SQLite store
/// in a temporary folder. Photos 1…5 exist.
final class CommentLiveServer {
    let directory: URL
    let service: CommentService
    let client: TestClient
    let metrics = MetricsRegistry()
    var port: Int { client.port }

    init(perMinute: Int = 0, adminToken: String = "", heartbeatSeconds: Double = 15, store given: (any CommentStore)? = nil) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("comments-live-\(UUID().uuidString)")
        var configuration = Configuration()
        configuration.data = directory.path
        configuration.commentsPerMinute = perMinute
        configuration.adminToken = adminToken
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let store = try given ?? SQLCommentStore(path: directory.appendingPathComponent("comments.sqlite").path, metrics: metrics)
        service = CommentService(store: store, configuration: configuration, logger: .disabled, metrics: metrics,
                                 photoExists: { (1...5).contains($0) }, heartbeatSeconds: heartbeatSeconds)
        var router = Router()
        service.register(on: &router)
        var options = TestServerOptions()
        options.server = HTTPServerConfiguration(host: "127.0.0.1", port: 0, eventLoops: 2, workerThreads: 4)
        client = try TestClient(.live, router: router, options: options)
    }

    func stop() {
        service.stop()
        client.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// One request on its own connection, body and headers exactly as given.
    func send(_ method: HTTPMethod, _ target: String, headers: HTTPHeaders = [:], body: [UInt8] = []) throws -> HTTPClientResponse {
        try HTTPClient.request(method, url: "http://127.0.0.1:\(port)\(target)", headers: headers, body: body, timeoutSeconds: 5)
    }

    func postJSON(_ photo: Int, _ json: String) throws -> HTTPClientResponse {
        try send(.POST, "/photos/\(photo)/comments", headers: ["Content-Type": "application/json"], body: Array(json.utf8))
    }

    /// Opens `GET target` and returns the connection once the stream's head has arrived.
    func openEvents(_ target: String, headers: HTTPHeaders = [:]) throws -> EventStreamReader {
        try openEventStream(port: port, target, headers: headers)
    }
}

/// Opens `GET target` on `port` as an event stream and returns once its head has arrived.
func openEventStream(port: Int, _ target: String, headers: HTTPHeaders = [:]) throws -> EventStreamReader {
    let connection = try HTTPClientConnection(port: port, timeoutSeconds: 0.2)
    var head = "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n"
    for field in headers { head += "\(field.name): \(field.value)\r\n" }
    try connection.send(head + "\r\n")
    var response: HTTPClientResponse?
    // Each read waits up to the connection's 0.2 s for the head.
    eventually(every: 0) {
        response = try? connection.readResponseHead()
        return response != nil
    }
    return EventStreamReader(connection: connection, head: try XCTUnwrap(response, "no response head for \(target)"))
}

extension HTTPClientResponse {
    var object: [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] ?? [:]
    }
}
