/// One row of a result, read out of the engine: it outlives the statement and crosses threads.
public struct SQLRow: Sendable {
    /// Column names in select order, shared by every row of one result.
    public let columns: [String]
    /// The values, in the same order.
    public let values: [SQLValue]

    /// A row of `values` under `columns` (the drivers build these; tests may too).
    public init(columns: [String], values: [SQLValue]) {
        precondition(columns.count == values.count, "a row has one value per column")
        self.columns = columns
        self.values = values
    }

    /// The raw value of column `index`.
    public subscript(index: Int) -> SQLValue { values[index] }

    /// Column `index` as `T`; throws `.decoding` naming the column when it does not convert.
    public func decode<T: SQLDecodable>(_ index: Int, as type: T.Type = T.self) throws -> T {
        guard values.indices.contains(index) else {
            throw SQLError(.decoding, message: "the row has \(values.count) columns, not \(index + 1)")
        }
        do {
            return try T(sqlValue: values[index])
        } catch let error as SQLError {
            throw error.inColumn("\(index) (\(columns[index]))")
        }
    }

    /// The column called `name` as `T`.
    public func decode<T: SQLDecodable>(_ name: String, as type: T.Type = T.self) throws -> T {
        guard let index = columns.firstIndex(of: name) else {
            throw SQLError(.decoding, message: "the row has no column \(name); it has \(columns.joined(separator: ", "))")
        }
        return try decode(index, as: type)
    }
}
