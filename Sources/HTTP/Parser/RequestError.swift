/// Why a request could not be read: the status to answer and a sentence for the client.
/// The connection closes after answering, because the byte stream can no longer be trusted.
public struct RequestError: HTTPResponseError, Equatable, CustomStringConvertible {
    /// The status to answer with (400, 413, 414, 431, 501, 505 …).
    public var status: HTTPStatus
    /// What was wrong, for the problem+json body.
    public var detail: String

    public init(_ status: HTTPStatus, _ detail: String) {
        self.status = status
        self.detail = detail
    }

    public var description: String { "\(status.rawValue) \(detail)" }

    static func bad(_ detail: String) -> RequestError { RequestError(.badRequest, detail) }
}
