import Foundation
import Observability

/// A response before the server adds `Date`, `Server`, `Content-Length` and `Connection`.
public struct HTTPResponse: Sendable {
    // Changing any part makes the encoded head stale, so it is dropped.
    public var status: HTTPStatus { didSet { encoded = nil } }
    public var headers: HTTPHeaders { didSet { encoded = nil } }
    public var body: HTTPBody { didSet { encoded = nil } }
    /// The same response with its head fields encoded once, when it came from a cache.
    public private(set) var encoded: EncodedResponse?

    public init(status: HTTPStatus = .ok, headers: HTTPHeaders = HTTPHeaders(), body: HTTPBody = .empty) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A response served from a cache: plain GETs of it skip preparing and encoding its fields.
    public init(_ encoded: EncodedResponse) {
        self = encoded.response
        self.encoded = encoded
    }

    /// A body of bytes with its content type.
    public init(status: HTTPStatus = .ok, contentType: String, bytes: [UInt8], headers: HTTPHeaders = HTTPHeaders()) {
        var headers = headers
        headers.set("Content-Type", contentType)
        self.init(status: status, headers: headers, body: .bytes(bytes))
    }

    /// A value as JSON through `JSONWriter` (`application/json; charset=utf-8`, members in the
    /// order the value encodes them). Every JSON answer says `nosniff`: its strings may be user
    /// input, and no browser may read it as HTML.
    public static func json<T: Encodable>(_ value: T, status: HTTPStatus = .ok, headers: HTTPHeaders = HTTPHeaders()) throws -> HTTPResponse {
        json(bytes: try JSONWriter.bytes(value), status: status, headers: headers)
    }

    /// JSON bytes already written by `JSONWriter` (a cached body), with the headers `json(_:)` gives.
    public static func json(bytes: [UInt8], status: HTTPStatus = .ok, headers: HTTPHeaders = HTTPHeaders()) -> HTTPResponse {
        var headers = headers
        headers.set("X-Content-Type-Options", "nosniff")
        return HTTPResponse(status: status, contentType: "application/json; charset=utf-8", bytes: bytes, headers: headers)
    }

    /// An RFC 9457 problem details body: `{"type":"about:blank","title":…,"status":…,"detail":…}`.
    public static func problem(_ status: HTTPStatus, detail: String, headers: HTTPHeaders = HTTPHeaders()) -> HTTPResponse {
        HTTPResponse(status: status, contentType: "application/problem+json", bytes: ProblemDetails(status, detail: detail).bytes,
                     headers: headers)
    }

    /// Bytes in memory, when the body is `.bytes`.
    public var bodyBytes: [UInt8]? {
        if case .bytes(let b) = body { return b }
        if case .empty = body { return [] }
        return nil
    }
}
