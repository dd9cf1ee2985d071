/// A parsed request head and what it says about the body that follows.
struct RequestHead: Sendable {
    var method: HTTPMethod
    var target: String
    var version: HTTPVersion
    var headers: HTTPHeaders
    /// The declared body length; nil when absent (and no chunked body).
    var contentLength: Int?
    /// `Transfer-Encoding: chunked`.
    var chunked: Bool
    /// `Expect: 100-continue`.
    var expectsContinue: Bool

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
