import Foundation
import HTTP
import SQL
import XCTest
@testable import App

/// The backup file on its own: every value type reads back as itself, and a damaged, truncated
/// or too new file is refused with a message saying which.
final class BackupFileTests: XCTestCase {
    let snapshot = BackupSnapshot(created: 1_765_000_000, schemas: ["catalog": 3, "comments": 4], sessions: false, tables: [
        BackupTable(store: "comments", name: "comments", columns: ["id", "text", "score", "bytes", "gone"], sequence: 9, rows: [
            [.integer(Int64.max), .text("a \"line\"\nwith ünïcode"), .double(0.1), .blob([0, 255, 10]), .null],
            [.integer(-1), .text(""), .double(2), .blob([]), .text("1")],
        ]),
        BackupTable(store: "catalog", name: "albums", columns: ["id", "path"], sequence: 0, rows: []),
    ])

    func testEveryValueTypeReadsBackAsItself() throws {
        let decoded = try BackupFile.decode(try BackupFile.encode(snapshot))
        XCTAssertEqual(decoded, snapshot)
    }

    func testTheTextIsDocumentedJSONLinesEndingInAChecksum() throws {
        let text = String(decoding: try XCTUnwrap(Gzip.decompress(try BackupFile.encode(snapshot))), as: UTF8.self)
        let lines = text.split(separator: "\n")
        XCTAssertEqual(lines.first, #"{"format":"photoscroll-backup","version":1,"created":1765000000,"sessions":false,"schema":{"catalog":3,"comments":4}}"#)
        XCTAssertEqual(lines[1], #"{"table":"comments","store":"comments","columns":["id","text","score","bytes","gone"],"sequence":9,"rows":2}"#)
        XCTAssertEqual(lines[2], #"[9223372036854775807,"a \"line\"\nwith ünïcode",{"real":0.1},{"blob":"AP8K"},null]"#)
        XCTAssertTrue(lines.last!.hasPrefix(#"{"checksum":"sha256:"#), String(lines.last!))
    }

    func testADamagedByteIsRefused() throws {
        var bytes = try BackupFile.encode(snapshot)
        bytes[bytes.count / 2] ^= 0x20
        XCTAssertThrowsError(try BackupFile.decode(bytes)) { XCTAssertTrue("\($0)".contains("damaged"), "\($0)") }
        // A change inside the text, compressed again so the gzip stream is whole: the checksum catches it.
        let text = String(decoding: try XCTUnwrap(Gzip.decompress(try BackupFile.encode(snapshot))), as: UTF8.self)
        let edited = try XCTUnwrap(Gzip.compress(Array(text.replacingOccurrences(of: "ünïcode", with: "unicode").utf8)))
        XCTAssertThrowsError(try BackupFile.decode(edited)) { XCTAssertTrue("\($0)".contains("SHA-256 checksum does not match"), "\($0)") }
    }

    func testATruncatedFileIsRefused() throws {
        let bytes = try BackupFile.encode(snapshot)
        XCTAssertThrowsError(try BackupFile.decode(Array(bytes.prefix(bytes.count - 12)))) { XCTAssertTrue("\($0)".contains("truncated"), "\($0)") }
        // Cut at a line, and compressed again: the checksum line is what is missing.
        let text = try XCTUnwrap(Gzip.decompress(bytes))
        let cut = text.prefix(through: try XCTUnwrap(text.dropLast().lastIndex(of: UInt8(ascii: "\n"))))
        XCTAssertThrowsError(try BackupFile.decode(try XCTUnwrap(Gzip.compress(Array(cut))))) {
            XCTAssertTrue("\($0)".contains("truncated: it has no checksum line"), "\($0)")
        }
    }

    func testANewerFormatVersionIsRefused() throws {
        let text = String(decoding: try XCTUnwrap(Gzip.decompress(try BackupFile.encode(snapshot))), as: UTF8.self)
        let newer = try XCTUnwrap(Gzip.compress(Array(text.replacingOccurrences(of: #""version":1,"#, with: #""version":2,"#).utf8)))
        XCTAssertThrowsError(try BackupFile.decode(newer)) { XCTAssertTrue("\($0)".contains("format version 2, newer than this build knows"), "\($0)") }
        XCTAssertThrowsError(try BackupFile.decode(Gzip.compress(Array("{\"hello\":1}\n".utf8))!)) {
            XCTAssertTrue("\($0)".contains("not a PhotoScroll backup"), "\($0)")
        }
    }
}
