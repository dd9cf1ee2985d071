import Foundation

/// One value bound to a parameter or read from a column, the same on both engines.
///
/// The set is the intersection of what SQLite stores and what PostgreSQL's common column types
/// read back as: 64-bit integers (PostgreSQL `smallint`, `integer`, `bigint`, and `boolean` as 0
/// or 1), doubles, text and bytes. Everything else PostgreSQL returns (numeric, timestamps, json)
/// arrives as its text form.
public enum SQLValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case double(Double)
    case text(String)
    case blob([UInt8])
}

extension SQLValue: CustomStringConvertible {
    /// A short form for error messages; long text and blobs are cut.
    public var description: String {
        switch self {
        case .null: return "NULL"
        case .integer(let n): return String(n)
        case .double(let d): return String(d)
        case .text(let s): return s.count > 40 ? "\"\(s.prefix(40))…\"" : "\"\(s)\""
        case .blob(let b): return "\(b.count) bytes"
        }
    }

    /// What kind of value this is, in words, for decoding errors.
    var kindName: String {
        switch self {
        case .null: return "NULL"
        case .integer: return "an integer"
        case .double: return "a double"
        case .text: return "text"
        case .blob: return "bytes"
        }
    }
}

extension SQLValue: SQLEncodable, SQLDecodable {
    public var sqlValue: SQLValue { self }
    public init(sqlValue: SQLValue) { self = sqlValue }
}

extension Int64: SQLEncodable, SQLDecodable {
    public var sqlValue: SQLValue { .integer(self) }
    public init(sqlValue: SQLValue) throws {
        switch sqlValue {
        case .integer(let n): self = n
        // PostgreSQL's numeric and a SQLite column of text affinity hand integers back as text.
        case .text(let s):
            guard let n = Int64(s) else { throw SQLError.decoding(sqlValue, as: "an integer") }
            self = n
        case .double(let d):
            guard let n = Int64(exactly: d) else { throw SQLError.decoding(sqlValue, as: "an integer") }
            self = n
        default: throw SQLError.decoding(sqlValue, as: "an integer")
        }
    }
}

extension Int: SQLEncodable, SQLDecodable {
    public var sqlValue: SQLValue { .integer(Int64(self)) }
    public init(sqlValue: SQLValue) throws { self = Int(try Int64(sqlValue: sqlValue)) }
}

extension Int32: SQLEncodable, SQLDecodable {
    public var sqlValue: SQLValue { .integer(Int64(self)) }
    public init(sqlValue: SQLValue) throws {
        guard let n = Int32(exactly: try Int64(sqlValue: sqlValue)) else { throw SQLError.decoding(sqlValue, as: "a 32-bit integer") }
        self = n
    }
}

extension Bool: SQLEncodable, SQLDecodable {
    /// Stored as 0 or 1, so one `INTEGER` column means the same on both engines.
    public var sqlValue: SQLValue { .integer(self ? 1 : 0) }
    public init(sqlValue: SQLValue) throws {
        switch sqlValue {
        case .integer(let n): self = n != 0
        default: throw SQLError.decoding(sqlValue, as: "a boolean")
        }
    }
}

extension Double: SQLEncodable, SQLDecodable {
    public var sqlValue: SQLValue { .double(self) }
    public init(sqlValue: SQLValue) throws {
        switch sqlValue {
        case .double(let d): self = d
        case .integer(let n): self = Double(n)
        case .text(let s):
            guard let d = Double(s) else { throw SQLError.decoding(sqlValue, as: "a number") }
            self = d
        default: throw SQLError.decoding(sqlValue, as: "a number")
        }
    }
}

extension String: SQLEncodable, SQLDecodable {
    public var sqlValue: SQLValue { .text(self) }
    public init(sqlValue: SQLValue) throws {
        guard case .text(let s) = sqlValue else { throw SQLError.decoding(sqlValue, as: "text") }
        self = s
    }
}

extension Array: SQLEncodable where Element == UInt8 {
    public var sqlValue: SQLValue { .blob(self) }
}

extension Array: SQLDecodable where Element == UInt8 {
    public init(sqlValue: SQLValue) throws {
        guard case .blob(let b) = sqlValue else { throw SQLError.decoding(sqlValue, as: "bytes") }
        self = b
    }
}

extension Data: SQLEncodable, SQLDecodable {
    public var sqlValue: SQLValue { .blob([UInt8](self)) }
    public init(sqlValue: SQLValue) throws { self = Data(try [UInt8](sqlValue: sqlValue)) }
}

extension Optional: SQLEncodable where Wrapped: SQLEncodable {
    public var sqlValue: SQLValue { self?.sqlValue ?? .null }
}

extension Optional: SQLDecodable where Wrapped: SQLDecodable {
    public init(sqlValue: SQLValue) throws {
        self = sqlValue == .null ? nil : try Wrapped(sqlValue: sqlValue)
    }
}
