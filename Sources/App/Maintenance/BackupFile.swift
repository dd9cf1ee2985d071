import Foundation
import HTTP
import Observability
import Uploads

/// The backup file: gzip'd JSON lines, documented in docs/deploy.md ("The backup file").
///
///     {"format":"photoscroll-backup","version":1,"created":1765000000,"sessions":false,"schema":{"access":5,…}}
///     {"table":"photos","store":"catalog","columns":["id","path",…],"sequence":12,"rows":2}
///     [1,"a.jpg",1,…,null]
///     …
///     {"checksum":"sha256:<64 hex digits of every byte above, newlines included>","tables":13,"rows":40}
public enum BackupFile {
    /// Written in the header; a file with a higher one is refused.
    public static let formatName = "photoscroll-backup"
    public static let version = 1

    struct Header: Codable {
        var format: String
        var version: Int
        var created: Int64?
        var sessions: Bool?
        var schema: SchemaVersions?
    }

    struct TableLine: Codable {
        var table: String
        var store: String
        var columns: [String]
        var sequence: Int64
        var rows: Int
    }

    struct End: Codable {
        var checksum: String
        var tables: Int
        var rows: Int
    }

    /// The schemas' versions as one object, its members in name order.
    struct SchemaVersions: Codable {
        var versions: [String: Int]

        private struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        init(_ versions: [String: Int]) { self.versions = versions }

        func encode(to encoder: any Encoder) throws {
            var keyed = encoder.container(keyedBy: Key.self)
            for name in versions.keys.sorted() { try keyed.encode(versions[name]!, forKey: Key(stringValue: name)) }
        }

        init(from decoder: any Decoder) throws {
            let keyed = try decoder.container(keyedBy: Key.self)
            var versions: [String: Int] = [:]
            for key in keyed.allKeys { versions[key.stringValue] = try keyed.decode(Int.self, forKey: key) }
            self.versions = versions
        }
    }

    /// The file's bytes.
    public static func encode(_ snapshot: BackupSnapshot) throws -> [UInt8] {
        var text: [UInt8] = []
        func line<Value: Encodable>(_ value: Value) throws {
            text += try JSONWriter.bytes(value)
            text.append(UInt8(ascii: "\n"))
        }
        try line(Header(format: formatName, version: version, created: snapshot.created, sessions: snapshot.sessions,
                        schema: SchemaVersions(snapshot.schemas)))
        for table in snapshot.tables {
            try line(TableLine(table: table.name, store: table.store, columns: table.columns, sequence: table.sequence, rows: table.rows.count))
            for row in table.rows { try line(row.map(BackupValue.init)) }
        }
        try line(End(checksum: "sha256:" + digest(text[...]), tables: snapshot.tables.count, rows: snapshot.rowCount))
        guard let compressed = Gzip.compress(text) else { throw BackupFileError("zlib could not compress the backup.") }
        return compressed
    }

    static func digest(_ bytes: ArraySlice<UInt8>) -> String {
        let sha = ChecksumDigest(.sha256)
        bytes.withUnsafeBytes { sha.update($0) }
        return sha.finish().map { String(format: "%02x", $0) }.joined()
    }
}
