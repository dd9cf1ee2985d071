import Observability
import Comments
import Foundation
import HTTP
import XCTest
@testable import App

/// A comment fixture whose requests go through one setup's client.
struct CommentClient {
    let fixture: CommentFixture
    let client: TestClient
    var service: CommentService { fixture.service }
    var store: CommentStore { fixture.store }
    var metrics: MetricsRegistry { fixture.metrics }

    func advance(seconds: Double) { fixture.advance(seconds: seconds) }

    func respond(_ method: HTTPMethod, _ target: String, headers: HTTPHeaders = [:], body: [UInt8] = [],
                 from remoteAddress: String = "192.0.2.1") -> TestResponse {
        client.answer(method, target, headers: headers, body: body, remoteAddress: remoteAddress)
    }

    func postJSON(_ photo: Int, _ json: String, from remoteAddress: String = "192.0.2.1", forwardedFor: String? = nil) -> TestResponse {
        var headers: HTTPHeaders = ["Content-Type": "application/json"]
        if let forwardedFor { headers.add("X-Forwarded-For", forwardedFor) }
        return respond(.POST, "/photos/\(photo)/comments", headers: headers, body: Array(json.utf8), from: remoteAddress)
    }
}
