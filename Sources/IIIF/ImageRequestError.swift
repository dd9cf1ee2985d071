/// Why an image request cannot be answered, in the two kinds the specification tells apart.
public struct ImageRequestError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Kind: Hashable, Sendable {
        /// Bad syntax, an empty region, a size out of range or an upscale without `^`: 400.
        case badRequest
        /// A valid request for something this server does not do (a `jp2` or `pdf` format): 501.
        case notImplemented
    }

    public var kind: Kind
    /// A sentence for the client saying what was wrong.
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    static func bad(_ message: String) -> ImageRequestError { ImageRequestError(.badRequest, message) }

    public var description: String { message }
}
