import Foundation
@testable import App
@testable import HTTP
import Observability
import XCTest

/// Where one test body's requests go, as Hummingbird's testing has `.router` and `.live`:
/// `.router` hands each request to the same `Responder` functions the server's loops call and
/// prepares the answer as the server would (HEAD, 304, ranges, gzip), all in this process;
/// `.live` serves the same routes from an HTTPServer on a loopback port and sends it real bytes.
enum TestingSetup: String, CaseIterable, Sendable {
    case router
    case live
}

/// An answer as a client reads it.
struct TestResponse {
    var status: HTTPStatus
    var headers: HTTPHeaders
    var body: [UInt8]

    var text: String { String(decoding: body, as: UTF8.self) }

    /// The body as a JSON object (problem details, a record), or empty.
    var object: [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] ?? [:]
    }
}

/// Sends a test's requests to one setup; `stop()` ends a live server.
final class TestClient {
    let setup: TestingSetup
    private let responder: Responder
    private let server: HTTPServer?

    init(_ setup: TestingSetup, router: Router) throws {
        self.setup = setup
        responder = Responder(router: router)
        switch setup {
        case .router:
            server = nil
        case .live:
            let configuration = HTTPServerConfiguration(host: "127.0.0.1", port: 0, eventLoops: 1, workerThreads: 2,
                                                        lanes: WorkLanes.threads(Configuration(), cores: 2))
            let server = HTTPServer(configuration: configuration, router: router, logger: .disabled)
            try server.start()
            self.server = server
        }
    }

    func stop() {
        server?.shutdown(graceSeconds: 1)
        server?.wait()
    }

    /// Sends one request. `remoteAddress` is the client's in-process; a live client is always loopback.
    func execute(_ method: HTTPMethod, _ target: String, headers: HTTPHeaders = [:], body: [UInt8] = [],
                 remoteAddress: String = "127.0.0.1") throws -> TestResponse {
        if let server {
            let answer = try HTTPClient.request(method, url: "http://127.0.0.1:\(server.port)\(target)", headers: headers, body: body)
            return TestResponse(status: HTTPStatus(answer.status), headers: answer.headers, body: answer.body)
        }
        // A client reaching the server over loopback; `Host` as a client would send it.
        var fields = headers
        if fields["Host"] == nil { fields.add("Host", "127.0.0.1") }
        let request = HTTPRequest(method: method, target: target, headers: fields, body: body, remoteAddress: remoteAddress)
        let prepared = PreparedResponse(responder.respond(to: request), for: request)
        return TestResponse(status: prepared.status, headers: prepared.headers, body: Self.bytes(of: prepared.payload))
    }

    private static func bytes(of payload: Payload) -> [UInt8] {
        switch payload {
        case .none, .stream: return []
        case .bytes(let bytes): return bytes
        case .file(let file, let offset, let length):
            var bytes = [UInt8](repeating: 0, count: length)
            let read = bytes.withUnsafeMutableBytes { pread(file.fd, $0.baseAddress, length, off_t(offset)) }
            return Array(bytes.prefix(max(0, read)))
        }
    }
}

extension XCTestCase {
    /// Runs `body` once per setup with a client of it, in-process first; a live server is
    /// stopped however the body ends. A setup whose run failed is named in one more failure.
    func test(_ router: Router, _ setups: [TestingSetup] = TestingSetup.allCases, file: StaticString = #filePath, line: UInt = #line,
              _ body: (TestClient) throws -> Void) throws {
        for setup in setups {
            let failures = testRun?.totalFailureCount ?? 0
            let client = try TestClient(setup, router: router)
            defer { client.stop() }
            do { try body(client) } catch { XCTFail("\(error)", file: file, line: line) }
            if (testRun?.totalFailureCount ?? 0) > failures { XCTFail("the failures above are in the \(setup) setup", file: file, line: line) }
        }
    }
}
