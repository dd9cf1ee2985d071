/// A `database` URL that cannot be used; the text says what is wrong.
public struct PostgresURLError: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
