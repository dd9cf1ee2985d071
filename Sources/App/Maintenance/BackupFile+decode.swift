import Foundation
import HTTP
import SQL

extension BackupFile {
    /// The largest backup read, uncompressed: far above any catalog of comments and accounts.
    static let readLimit = 8 << 30

    /// Reads and checks a whole backup before anything is written: the gzip stream, the format
    /// and its version, the checksum over every line, then each table and its row count.
    public static func decode(_ bytes: [UInt8]) throws -> BackupSnapshot {
        guard let text = Gzip.decompress(bytes, limit: readLimit) else {
            throw BackupFileError("The file is damaged or truncated (its gzip stream is not whole), or is not a PhotoScroll backup.")
        }
        let lines = text.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        let json = JSONDecoder()
        guard let first = lines.first, let header = try? json.decode(Header.self, from: Data(first)), header.format == formatName else {
            throw BackupFileError("The file is not a PhotoScroll backup (its first line does not say \"format\":\"\(formatName)\").")
        }
        guard header.version <= version else {
            throw BackupFileError("The backup is format version \(header.version), newer than this build knows (up to \(version)); restore it with a newer photoscroll.")
        }
        // The text ends with a newline, so the last element is empty and the end line is before it.
        guard lines.count >= 3, lines.last?.isEmpty == true,
              let end = try? json.decode(End.self, from: Data(lines[lines.count - 2])) else {
            throw BackupFileError("The backup is truncated: it has no checksum line at its end.")
        }
        let covered = text.count - lines[lines.count - 2].count - 1
        guard end.checksum == "sha256:" + digest(text[0..<covered]) else {
            throw BackupFileError("The backup is damaged: its SHA-256 checksum does not match its contents.")
        }
        guard let created = header.created, let schemas = header.schema?.versions else {
            throw BackupFileError("The backup's header lacks its creation time or schema versions.")
        }
        var snapshot = BackupSnapshot(created: created, schemas: schemas, sessions: header.sessions ?? false, tables: [])
        var index = 1
        let body = lines.count - 2
        while index < body {
            guard let table = try? json.decode(TableLine.self, from: Data(lines[index])) else {
                throw BackupFileError("Line \(index + 1) of the backup should name a table, and does not.")
            }
            guard index + table.rows < body else {
                throw BackupFileError("The backup's table \(table.table) is cut short: it announces \(table.rows) rows.")
            }
            var rows: [[SQLValue]] = []
            rows.reserveCapacity(table.rows)
            for line in lines[(index + 1)..<(index + 1 + table.rows)] {
                guard let values = try? json.decode([BackupValue].self, from: Data(line)), values.count == table.columns.count else {
                    throw BackupFileError("A row of the backup's table \(table.table) does not have its \(table.columns.count) values.")
                }
                rows.append(values.map(\.value))
            }
            snapshot.tables.append(BackupTable(store: table.store, name: table.table, columns: table.columns, sequence: table.sequence, rows: rows))
            index += table.rows + 1
        }
        guard end.tables == snapshot.tables.count, end.rows == snapshot.rowCount else {
            throw BackupFileError("The backup's end line counts \(end.tables) tables and \(end.rows) rows, but it holds \(snapshot.tables.count) and \(snapshot.rowCount).")
        }
        return snapshot
    }
}
