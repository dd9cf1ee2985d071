/// A response read by `HTTPClient` or `HTTPClientConnection`.
public struct HTTPClientResponse: Sendable {
    /// The status code, e.g. 200.
    public var status: Int
    /// The reason phrase as sent.
    public var reason: String
    /// The header fields in the order received.
    public var headers: HTTPHeaders
    /// The body, de-chunked; gzip is left as sent.
    public var body: [UInt8]

    public init(status: Int, reason: String, headers: HTTPHeaders, body: [UInt8]) {
        self.status = status
        self.reason = reason
        self.headers = headers
        self.body = body
    }

    /// The body as UTF-8 text.
    public var text: String { String(decoding: body, as: UTF8.self) }
}
