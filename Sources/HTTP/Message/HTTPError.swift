/// The general-purpose client error: a status and a detail sentence.
public struct HTTPError: HTTPResponseError, CustomStringConvertible {
    public var status: HTTPStatus
    public var detail: String
    public var headers: HTTPHeaders

    public init(_ status: HTTPStatus, _ detail: String, headers: HTTPHeaders = HTTPHeaders()) {
        self.status = status
        self.detail = detail
        self.headers = headers
    }

    public var description: String { "\(status): \(detail)" }
}
