/// A statement and its parameters, written once for both engines.
///
/// Parameters are PostgreSQL-style `$1`, `$2` … (SQLite is handed `?1`, `?2` …); a number may
/// appear more than once. Interpolating a value binds it, so values never become SQL text:
///
///     let photoID = 3
///     try db.query("SELECT id, text FROM comments WHERE photo_id = \(photoID) ORDER BY id")
///     // SQL "SELECT id, text FROM comments WHERE photo_id = $1 ORDER BY id", bindings [3]
///
/// `\(raw: …)` splices text as it is, for table names or dialect fragments that are constants.
/// The statement text is the prepared-statement cache's key, so it must not vary per call:
/// interpolate values, never splice them raw.
public struct SQLQuery: Sendable, ExpressibleByStringInterpolation {
    /// The statement text with `$n` placeholders.
    public var sql: String
    /// The value of `$1`, `$2`, ….
    public var bindings: [SQLValue]

    /// A statement with explicit `$n` placeholders and their values.
    public init(_ sql: String, _ bindings: [any SQLEncodable] = []) {
        self.sql = sql
        self.bindings = bindings.map(\.sqlValue)
    }

    public init(stringLiteral value: String) {
        sql = value
        bindings = []
    }

    public init(stringInterpolation: StringInterpolation) {
        sql = stringInterpolation.sql
        bindings = stringInterpolation.bindings
    }

    /// Builds the text and the bindings as the literal is read.
    public struct StringInterpolation: StringInterpolationProtocol {
        var sql = ""
        var bindings: [SQLValue] = []

        public init(literalCapacity: Int, interpolationCount: Int) {
            sql.reserveCapacity(literalCapacity + 3 * interpolationCount)
        }

        public mutating func appendLiteral(_ literal: String) { sql += literal }

        /// Binds `value` as the next `$n`.
        public mutating func appendInterpolation(_ value: some SQLEncodable) {
            bindings.append(value.sqlValue)
            sql += "$\(bindings.count)"
        }

        /// Binds `value`, or NULL when it is nil, as the next `$n`.
        public mutating func appendInterpolation<Value: SQLEncodable>(_ value: Value?) {
            bindings.append(value?.sqlValue ?? .null)
            sql += "$\(bindings.count)"
        }

        /// Splices constant SQL text.
        public mutating func appendInterpolation(raw text: String) { sql += text }
    }
}
