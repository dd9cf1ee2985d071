/// A response the client could not make sense of, or a connection that ended too soon.
public struct HTTPClientError: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}
