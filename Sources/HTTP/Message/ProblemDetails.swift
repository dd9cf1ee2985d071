import Observability

/// An RFC 9457 problem details body, members in the RFC's order:
/// `{"type":"about:blank","title":…,"status":…,"detail":…}`.
public struct ProblemDetails: Encodable, Sendable {
    public var type = "about:blank"
    /// The status's reason phrase.
    public var title: String
    public var status: Int
    /// What was wrong with this request, for the person who sent it.
    public var detail: String

    public init(_ status: HTTPStatus, detail: String) {
        self.title = status.reasonPhrase
        self.status = status.rawValue
        self.detail = detail
    }

    /// The body's bytes; a problem of strings and a number always encodes.
    public var bytes: [UInt8] { (try? JSONWriter.bytes(self)) ?? [] }
}
