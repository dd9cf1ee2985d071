import Foundation
import SQL

/// What backups and restores ask a database about its own tables, on either engine.
extension SQLConnection {
    /// The table's columns in their order, or empty when there is no such table.
    func columns(of table: String) throws -> [String] {
        let rows = engine == .sqlite
            ? try query("SELECT name FROM pragma_table_info(\(table)) ORDER BY cid")
            : try query("""
                SELECT column_name FROM information_schema.columns
                WHERE table_schema = current_schema() AND table_name = \(table) ORDER BY ordinal_position
                """)
        return try rows.map { try $0.decode(0, as: String.self) }
    }

    /// How many rows the table holds, or nil when there is no such table.
    func rowCount(of table: String) throws -> Int? {
        guard try !columns(of: table).isEmpty else { return nil }
        return try scalar("SELECT count(*) FROM \(raw: quoted(table))", as: Int.self)
    }

    /// The highest id the table's generated key has handed out, 0 when it has none.
    func sequence(of table: String) throws -> Int64 {
        if engine == .sqlite {
            let hasSequences = try scalar("SELECT count(*) FROM sqlite_master WHERE name = 'sqlite_sequence'", as: Int.self) ?? 0
            guard hasSequences > 0 else { return 0 }
            return try scalar("SELECT seq FROM sqlite_sequence WHERE name = \(table)", as: Int64.self) ?? 0
        }
        guard try columns(of: table).contains("id"),
              let sequence = try scalar("SELECT pg_get_serial_sequence(\(table), 'id')", as: String?.self) ?? nil else { return 0 }
        guard let row = try first("SELECT last_value, is_called FROM \(raw: sequence)") else { return 0 }
        return try row.decode(1, as: Bool.self) ? try row.decode(0, as: Int64.self) : 0
    }

    /// Makes the table's generated key continue after `value` (and after every id it holds).
    func advanceSequence(of table: String, past value: Int64) throws {
        if engine == .sqlite {
            let autoincrement = try scalar("SELECT count(*) FROM sqlite_master WHERE name = \(table) AND sql LIKE '%AUTOINCREMENT%'", as: Int.self) ?? 0
            guard autoincrement > 0 else { return }
            // Explicit ids have moved sqlite_sequence to the largest already; only a higher mark is left to keep.
            let updated = try run("UPDATE sqlite_sequence SET seq = \(value) WHERE name = \(table) AND seq < \(value)")
            if updated == 0, value > 0, try scalar("SELECT count(*) FROM sqlite_sequence WHERE name = \(table)", as: Int.self) == 0 {
                try run("INSERT INTO sqlite_sequence (name, seq) VALUES (\(table), \(value))")
            }
            return
        }
        guard try columns(of: table).contains("id"),
              let sequence = try scalar("SELECT pg_get_serial_sequence(\(table), 'id')", as: String?.self) ?? nil else { return }
        let largest = try scalar("SELECT max(id) FROM \(raw: quoted(table))", as: Int64?.self) ?? nil
        let highest = max(value, largest ?? 0)
        guard highest > 0 else { return }
        try run("SELECT setval(CAST(\(sequence) AS regclass), CAST(\(highest) AS BIGINT))")
    }

    /// A table or column name as a quoted identifier.
    func quoted(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
