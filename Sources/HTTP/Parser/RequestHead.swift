/// A parsed request head and what it says about the body that follows.
struct RequestHead: Sendable {
    var method: HTTPMethod
    /// The request-target, cut at its `?`.
    var requestTarget: RequestTarget
    /// The request-target as sent.
    var target: String { requestTarget.text }
    var version: HTTPVersion
    var headers: HTTPHeaders
    /// Which of the fields that shape an answer `headers` holds.
    var noted: NotedFields
    /// The Host value, checked; nil when there is none (HTTP/1.0).
    var host: String?
    /// The declared body length; nil when absent (and no chunked body).
    var contentLength: Int?
    /// `Transfer-Encoding: chunked`.
    var chunked: Bool
    /// `Expect: 100-continue`.
    var expectsContinue: Bool
    /// Whether the client asks for the connection to close after this request: a `close` token
    /// in Connection, or HTTP/1.0 without `keep-alive` (`HTTPRequest.wantsClose`'s rule, read
    /// from the bytes as the fields were parsed).
    var wantsClose: Bool

    /// Whether a body follows the head.
    var hasBody: Bool { chunked || (contentLength ?? 0) > 0 }
}

/// What `parseRequestHead` found in the bytes so far.
enum HeadParseResult {
    /// A whole head, `consumed` bytes long (leading empty lines included).
    case complete(RequestHead, consumed: Int)
    /// The head is not complete yet; call again with more bytes.
    case needMore
    /// The head is malformed or over a limit; answer the error and close.
    case invalid(RequestError)
}

/// A request-target as sent, cut at its first `?`: routing needs the parts, and the whole is
/// spelled out again only when asked for, so a request builds one string fewer.
struct RequestTarget: Sendable, Equatable {
    /// Up to the `?`, or all of it, e.g. `/photos/3/tiles/2/1/0.jpg`.
    var path: String
    /// After the `?`; nil when there is no `?`.
    var query: String?
    /// Whether the path holds a `%`, i.e. needs percent-decoding.
    var pathHasEscapes: Bool

    init(path: String, query: String?, pathHasEscapes: Bool) {
        self.path = path
        self.query = query
        self.pathHasEscapes = pathHasEscapes
    }

    init(path: String, query: String?) {
        self.init(path: path, query: query, pathHasEscapes: path.utf8.contains(UInt8(ascii: "%")))
    }

    /// Cuts `target` at its first `?`.
    init(_ target: String) {
        var target = target
        let parts: (String, String)? = target.withUTF8 { bytes in
            guard let q = bytes.firstIndex(of: UInt8(ascii: "?")) else { return nil }
            return (String(decoding: UnsafeBufferPointer(rebasing: bytes[..<q]), as: UTF8.self),
                    String(decoding: UnsafeBufferPointer(rebasing: bytes[(q + 1)...]), as: UTF8.self))
        }
        if let (path, query) = parts {
            self.init(path: path, query: query)
        } else {
            self.init(path: target, query: nil)
        }
    }

    /// The target as sent.
    var text: String { query.map { path + "?" + $0 } ?? path }
}
