/// A type made from one row, so `query(_:as:)` can return `[Photo]` instead of rows.
public protocol SQLRowDecodable {
    /// Reads the row; throw the row's own decoding errors.
    init(row: SQLRow) throws
}
