import Foundation
import Observability

/// What a response carries after its head.
public enum HTTPBody: Sendable {
    /// No body (Content-Length: 0).
    case empty
    /// Bytes in memory. `[UInt8]` is copy-on-write, so a cached tile is shared, not copied, per request.
    case bytes([UInt8])
    /// A byte range of a file on disk, sent with sendfile(2). `length` nil means to the end of the file.
    case file(path: String, offset: Int = 0, length: Int? = nil)
    /// A whole file under `root`, opened without following any symlink below the root: a
    /// symlink swapped in after `path` was resolved is refused (404), never followed out.
    case confinedFile(root: String, path: String)
    /// A byte range of a file the application opened itself (the very file it checked), sent
    /// with sendfile(2) and closed when the response is done. `length` nil means to the end.
    case openFile(OpenFile, offset: Int = 0, length: Int? = nil)
    /// A long-lived body (Server-Sent Events): the server sends the head without Content-Length,
    /// then calls `start` once with a stream the application writes to from any thread.
    case stream(@Sendable (ResponseStream) -> Void)
}

/// The write side of a `.stream` body. Thread-safe; writes are queued to the connection's event loop.
public protocol ResponseStream: AnyObject, Sendable {
    /// Queues bytes for the client; false when the connection is already gone.
    @discardableResult
    func write(_ bytes: [UInt8]) -> Bool
    /// Ends the response and closes the connection.
    func close()
    /// Whether the client is gone or `close()` was called.
    var isClosed: Bool { get }
    /// Called once, on any thread, when the connection closes for whatever reason.
    func onClose(_ callback: @escaping @Sendable () -> Void)
    /// Calls `callback` once what was written so far has (nearly) all gone to the client, so a
    /// writer with much to send (a replay) sends it a page at a time, as fast as the client
    /// reads, instead of queuing all of it. Never called once the stream is closed.
    func whenDrained(_ callback: @escaping @Sendable () -> Void)
}

extension ResponseStream {
    /// A stream without backpressure of its own is always drained.
    public func whenDrained(_ callback: @escaping @Sendable () -> Void) {
        if !isClosed { callback() }
    }
}

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
