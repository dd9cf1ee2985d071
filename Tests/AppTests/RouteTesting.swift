import Foundation
@testable import App
@testable import HTTP
import Observability
import XCTest

// How AppTests start a server, in one place (`.router` or `.live`, or a process):
//
// - in process: a fixture builds its router (an `Application`'s, or one service's routes) and
//   hands it to `TestClient` (or `XCTestCase.test`, which runs one body in both setups):
//   `.router` (`TestClient(inProcess:)`) answers through the `Responder` the server's loops use,
//   `.live` serves the router from an `HTTPServer` on a loopback port. `TestServerOptions` shapes
//   the server; `ManualClock` (Observability) is the time a test moves instead of waiting.
//   AccessFixture, CommentFixture, CommentLiveServer, UploadTestServer, StreamProbe and every
//   route and live test start this way.
// - as a process: `ServerProcess` runs the built `photoscroll serve` binary as a child on a free
//   port (the real command line, settings from the environment, signals, crashes), and
//   `ServerProcess.refusedStart` a start that must fail; `ReplicaCluster` runs several of them
//   on one PostgreSQL behind nginx.
//
// Whatever a test waits for that it cannot be told of (another thread's or process's work) it
// waits for with `eventually`, never a fixed sleep.

/// Where one test body's requests go, `.router` or `.live`:
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
final class TestClient: Sendable {
    let setup: TestingSetup
    /// The live server, for a test about the server itself (its lanes, its shutdown); nil in-process.
    let server: HTTPServer?
    private let responder: Responder
    private let options: TestServerOptions

    convenience init(_ setup: TestingSetup, router: Router, options: TestServerOptions = TestServerOptions()) throws {
        switch setup {
        case .router:
            self.init(inProcess: router, options: options)
        case .live:
            var configuration = options.server
            configuration.port = 0
            let server = HTTPServer(configuration: configuration, router: router, logger: .disabled, observer: options.observer)
            try server.start()
            self.init(router: router, server: server, options: options)
        }
    }

    /// An in-process client (`.router`): nothing is started, so nothing can fail.
    convenience init(inProcess router: Router, options: TestServerOptions = TestServerOptions()) {
        self.init(router: router, server: nil, options: options)
    }

    private init(router: Router, server: HTTPServer?, options: TestServerOptions) {
        setup = server == nil ? .router : .live
        responder = Responder(router: router)
        self.server = server
        self.options = options
    }

    /// The live server's port.
    var port: Int {
        guard let server else { preconditionFailure("an in-process client has no port") }
        return server.port
    }

    /// `http://127.0.0.1:port` of the live server.
    var base: String { "http://127.0.0.1:\(port)" }

    func stop() {
        server?.shutdown(graceSeconds: 1)
        server?.wait()
    }

    /// Sends one request. `remoteAddress` is the client's in-process; a live client is always loopback.
    func execute(_ method: HTTPMethod, _ target: String, headers: HTTPHeaders = [:], body: [UInt8] = [],
                 remoteAddress: String = "127.0.0.1") throws -> TestResponse {
        let fields = named(headers)
        if server != nil {
            let answer = try HTTPClient.request(method, url: base + target, headers: fields, body: body, timeoutSeconds: options.requestTimeout)
            return TestResponse(status: HTTPStatus(answer.status), headers: answer.headers, body: answer.body)
        }
        let request = inProcessRequest(method, target, headers: fields, body: body, remoteAddress: remoteAddress)
        let prepared = PreparedResponse(responder.respond(to: request), for: request)
        return TestResponse(status: prepared.status, headers: prepared.headers, body: Self.bytes(of: prepared.payload))
    }

    /// `execute` for a body that reads answers: a request that cannot be sent fails the test and
    /// reads as status 0.
    func answer(_ method: HTTPMethod, _ target: String, headers: HTTPHeaders = [:], body: [UInt8] = [],
                remoteAddress: String = "127.0.0.1", file: StaticString = #filePath, line: UInt = #line) -> TestResponse {
        do { return try execute(method, target, headers: headers, body: body, remoteAddress: remoteAddress) } catch {
            XCTFail("\(method) \(target): \(error)", file: file, line: line)
            return TestResponse(status: HTTPStatus(0), headers: [:], body: [])
        }
    }

    /// The responder's answer as the routes give it, not prepared for the wire: a stream body is
    /// not started, for a test that is the stream's far end. In-process only.
    func response(_ method: HTTPMethod, _ target: String, headers: HTTPHeaders = [:], body: [UInt8] = [],
                  remoteAddress: String = "127.0.0.1") -> HTTPResponse {
        precondition(server == nil, "a live server's answers are read off its socket")
        return responder.respond(to: inProcessRequest(method, target, headers: named(headers), body: body, remoteAddress: remoteAddress))
    }

    /// `headers` with the options' `Host` when they name none.
    private func named(_ headers: HTTPHeaders) -> HTTPHeaders {
        var fields = headers
        if fields["Host"] == nil, let host = options.host { fields.add("Host", host) }
        return fields
    }

    /// A request as the server's loops hand it over, with `Host` as a client over loopback sends it.
    private func inProcessRequest(_ method: HTTPMethod, _ target: String, headers: HTTPHeaders, body: [UInt8],
                                  remoteAddress: String) -> HTTPRequest {
        var fields = headers
        if fields["Host"] == nil { fields.add("Host", "127.0.0.1") }
        return HTTPRequest(method: method, target: target, headers: fields, body: body, remoteAddress: remoteAddress)
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
    func test(_ router: Router, _ setups: [TestingSetup] = TestingSetup.allCases, options: TestServerOptions = TestServerOptions(),
              file: StaticString = #filePath, line: UInt = #line, _ body: (TestClient) throws -> Void) throws {
        for setup in setups {
            let failures = testRun?.totalFailureCount ?? 0
            let client = try TestClient(setup, router: router, options: options)
            defer { client.stop() }
            do { try body(client) } catch { XCTFail("\(error)", file: file, line: line) }
            if (testRun?.totalFailureCount ?? 0) > failures { XCTFail("the failures above are in the \(setup) setup", file: file, line: line) }
        }
    }
}
