/// An error that reaches the client as a problem+json response with its own status.
///
/// Anything thrown by a handler that does not conform is logged and answered 500
/// with no internals in the body.
public protocol HTTPResponseError: Error {
    var status: HTTPStatus { get }
    /// A sentence for the client saying what was wrong and, where it helps, what to do.
    var detail: String { get }
    /// Extra headers, e.g. `Allow` on 405 or `Retry-After` on 429.
    var headers: HTTPHeaders { get }
}

extension HTTPResponseError {
    public var headers: HTTPHeaders { HTTPHeaders() }

    /// The problem+json response for this error.
    public var response: HTTPResponse { .problem(status, detail: detail, headers: headers) }
}
