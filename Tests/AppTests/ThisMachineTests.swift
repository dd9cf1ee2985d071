@testable import Access
import Foundation
@testable import App
@testable import HTTP
import Observability
import XCTest

/// The forwarded dimension of the route × visitor walk, on a public library: `manage` (and
/// `/metrics` without a token) is granted to this machine only, which is a direct loopback peer
/// naming a loopback host and coming through no proxy. A proxy on the same machine connects
/// from loopback for everyone behind it, trusted or not.
final class ThisMachineTests: XCTestCase {
    struct Asker: CustomStringConvertible {
        let description: String
        let remote: String
        let headers: HTTPHeaders
        let isThisMachine: Bool
    }

    static let askers: [Asker] = [
        Asker(description: "this machine by name", remote: "127.0.0.1", headers: ["Host": "localhost:8080"], isThisMachine: true),
        Asker(description: "this machine by address", remote: "127.0.0.1", headers: ["Host": "127.0.0.1:8080"], isThisMachine: true),
        Asker(description: "this machine over IPv6", remote: "::1", headers: ["Host": "[::1]:8080"], isThisMachine: true),
        Asker(description: "a proxy here (X-Forwarded-For)", remote: "127.0.0.1",
              headers: ["Host": "localhost:8080", "X-Forwarded-For": "203.0.113.9"], isThisMachine: false),
        Asker(description: "a proxy here forwarding loopback", remote: "127.0.0.1",
              headers: ["Host": "localhost:8080", "X-Forwarded-For": "127.0.0.1"], isThisMachine: false),
        Asker(description: "a proxy here (Forwarded)", remote: "127.0.0.1",
              headers: ["Host": "localhost:8080", "Forwarded": "for=203.0.113.9;proto=https"], isThisMachine: false),
        Asker(description: "a proxy here (X-Real-IP)", remote: "127.0.0.1",
              headers: ["Host": "localhost:8080", "X-Real-IP": "203.0.113.9"], isThisMachine: false),
        Asker(description: "a proxy here (x-forwarded-host)", remote: "127.0.0.1",
              headers: ["Host": "localhost:8080", "x-forwarded-host": "photos.test"], isThisMachine: false),
        Asker(description: "a proxy here (X-Forwarded-Proto)", remote: "127.0.0.1",
              headers: ["Host": "localhost:8080", "X-Forwarded-Proto": "https"], isThisMachine: false),
        Asker(description: "loopback naming a served host that is not loopback", remote: "127.0.0.1",
              headers: ["Host": "photos.test"], isThisMachine: false),
        Asker(description: "another machine naming localhost", remote: "192.0.2.7", headers: ["Host": "localhost:8080"], isThisMachine: false),
    ]

    nonisolated(unsafe) static var fixture: AccessFixture!
    nonisolated(unsafe) static var trustingFixture: AccessFixture!
    static let logs = MemoryLogSink()

    override class func setUp() {
        super.setUp()
        do {
            fixture = try AccessFixture(logger: Logger(label: "test", level: .warning, sink: logs)) { $0.access = "public" }
            trustingFixture = try AccessFixture { $0.access = "public"; $0.trustedProxies = "127.0.0.1" }
        } catch {
            XCTFail("fixture: \(error)")
        }
    }

    override class func tearDown() {
        fixture?.close()
        trustingFixture?.close()
        super.tearDown()
    }

    func testManageAndMetricsAreThisMachinesOnlyOnEveryRoute() throws {
        var checked = 0
        for f in [Self.fixture!, Self.trustingFixture!] {
            for route in f.router.routes {
                guard let rule = route.access as? Rule, rule.kind == .manage || rule.kind == .metrics else { continue }
                for asker in Self.askers {
                    let request = HTTPRequest(method: route.method, target: route.pattern, headers: asker.headers, remoteAddress: asker.remote)
                    let decided: Int? = switch rule.admit(request) {
                    case .granted: nil
                    case .refused(let answer): answer.status.rawValue
                    case .deferred(let check): check()?.status.rawValue
                    }
                    let refusal = rule.kind == .metrics ? 403 : 401
                    XCTAssertEqual(decided, asker.isThisMachine ? nil : refusal, "\(route.method) \(route.pattern) from \(asker)")
                    checked += 1
                }
            }
        }
        XCTAssertGreaterThan(checked, 400)
    }

    func testAnAlbumMadeThroughAProxyHereIsRefusedAndNotMade() throws {
        let f = Self.fixture!
        for asker in Self.askers where !asker.isThisMachine {
            let answer = f.post("/folders", json: #"{"title":"Through a proxy"}"#, headers: asker.headers, remoteAddress: asker.remote)
            XCTAssertEqual(answer.status, .unauthorized, "\(asker): \(answer.text.prefix(200))")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: f.root + "/photos/Through a proxy"), "no album was made")
        let made = f.post("/folders", json: #"{"title":"From here"}"#, headers: ["Host": "localhost:8080"])
        XCTAssertEqual(made.status, .created, made.text)
        XCTAssertTrue(FileManager.default.fileExists(atPath: f.root + "/photos/From here"))
    }

    func testTheFirstRequestThroughAProxyNotTrustedIsLoggedOnceWithTheSetting() {
        let f = Self.fixture!
        for _ in 0..<3 {
            _ = f.post("/folders", json: "{}", headers: ["Host": "localhost", "X-Forwarded-For": "203.0.113.9"])
        }
        let lines = Self.logs.all.filter { $0.message.contains("trustedProxies") }
        XCTAssertEqual(lines.count, 1, "\(Self.logs.all.map(\.message))")
        XCTAssertEqual(lines.first?.metadata.first { $0.0 == "proxy" }?.1, "127.0.0.1")
    }

    func testThisMachineIsOneQuestion() {
        for asker in Self.askers {
            let request = HTTPRequest(method: .GET, target: "/", headers: asker.headers, remoteAddress: asker.remote)
            XCTAssertEqual(ThisMachine.asks(request), asker.isThisMachine, asker.description)
        }
        XCTAssertFalse(ThisMachine.asks(HTTPRequest(method: .GET, target: "/", remoteAddress: "127.0.0.1")), "no Host: not known to be this machine")
    }
}
