/// A Swift value that can be bound to a statement parameter.
public protocol SQLEncodable: Sendable {
    /// The value as the engines store it.
    var sqlValue: SQLValue { get }
}
