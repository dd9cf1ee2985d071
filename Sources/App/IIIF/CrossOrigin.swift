import HTTP

/// Cross-origin access for images and their documents: viewers on other sites draw our pixels
/// into WebGL and canvas, which browsers allow only with `Access-Control-Allow-Origin`.
enum CrossOrigin {
    static let allowOrigin = ("Access-Control-Allow-Origin", "*")

    /// The answer to a CORS preflight (OPTIONS) for a read-only resource.
    static func preflight(_ request: HTTPRequest) -> HTTPResponse {
        var headers = HTTPHeaders([allowOrigin, ("Access-Control-Allow-Methods", "GET, HEAD, OPTIONS"),
                                   ("Access-Control-Max-Age", "86400"), ("Allow", "GET, HEAD, OPTIONS")])
        if let asked = request.headers["Access-Control-Request-Headers"], asked.utf8.allSatisfy(isTokenListByte) {
            headers.add("Access-Control-Allow-Headers", asked)
        }
        return HTTPResponse(status: .noContent, headers: headers)
    }

    /// A client error as problem+json that a page on another site can read too.
    static func problem(_ status: HTTPStatus, _ detail: String, retryAfterSeconds: Int? = nil) -> HTTPError {
        var headers = HTTPHeaders([allowOrigin])
        if let retryAfterSeconds { headers.add("Retry-After", String(retryAfterSeconds)) }
        return HTTPError(status, detail, headers: headers)
    }

    private static func isTokenListByte(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ",") || byte == UInt8(ascii: " ") || byte == UInt8(ascii: "_")
    }
}
