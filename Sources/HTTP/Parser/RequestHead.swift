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
