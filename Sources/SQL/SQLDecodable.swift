/// A Swift value that can be read from a column.
public protocol SQLDecodable: Sendable {
    /// Reads the value, or throws `SQLError` of kind `.decoding` saying what the column held instead.
    init(sqlValue: SQLValue) throws
}
