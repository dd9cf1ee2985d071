import Foundation
import XCTest
@testable import Observability

final class LogLineTests: XCTestCase {
    /// The timestamp is spelled without Foundation; it must say what Foundation's ISO 8601 says.
    func testTimestampsMatchFoundationsISO8601() {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        formatter.timeZone = TimeZone(identifier: "UTC")
        var seconds: [Int] = [0, 59, 86_399, 86_400, 951_782_400 /* 2000-02-29 */, 1_709_164_800 /* 2024-02-29 */,
                              4_107_542_399 /* 2100-02-28T23:59:59 */, 4_107_542_400, 253_402_300_799 /* 9999-12-31T23:59:59 */]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 { seconds.append(Int.random(in: 0...4_102_444_800, using: &generator)) }
        for second in seconds {
            let ms = second % 1000
            let expected = formatter.string(from: Date(timeIntervalSince1970: Double(second) + Double(ms) / 1000 + 0.0004))
            XCTAssertEqual(LogTimestamp.string(seconds: second, milliseconds: ms), expected, "second \(second)")
        }
    }

    /// A buffer reuses its spelled second and re-spells it when the second changes.
    func testOneBufferFollowsTheClockAcrossSeconds() {
        let buffer = LogLineBuffer(format: .text, fileDescriptor: nil)
        for (second, ms) in [(1_700_000_000, 1), (1_700_000_000, 999), (1_700_000_001, 0), (1_700_086_400, 5)] {
            buffer.begin(level: .info, label: "t", seconds: second, milliseconds: ms)
            buffer.endMessage()
            buffer.end()
        }
        XCTAssertEqual(buffer.text, """
            2023-11-14T22:13:20.001Z info    t: \n2023-11-14T22:13:20.999Z info    t: \n\
            2023-11-14T22:13:21.000Z info    t: \n2023-11-15T22:13:20.005Z info    t: \n
            """)
    }

    func testTextLinesCannotBeForged() {
        let record = LogRecord(date: Date(timeIntervalSince1970: 1_700_000_000), level: .info, label: "http",
                               message: "GET /a\n2023-11-14T22:13:20.000Z error   http: forged 200",
                               metadata: [("path", "/a\r\nstatus=500"), ("agent", "x\u{1b}[31mred"), ("q", "say \"hi\" \\o/"),
                                          ("bidi", "abc\u{202E}gpj.exe"), ("c1", "\u{9b}2J"), ("sep", "a\u{2028}b")])
        let line = StreamLogSink.text(record)
        XCTAssertFalse(line.contains("\n"))
        XCTAssertFalse(line.contains("\r"))
        XCTAssertFalse(line.unicodeScalars.contains { $0.value < 0x20 || (0x7f...0x9f).contains($0.value) || $0 == "\u{202E}" || $0 == "\u{2028}" })
        XCTAssertEqual(line, #"2023-11-14T22:13:20.000Z info    http: GET /a\n2023-11-14T22:13:20.000Z error   http: forged 200"#
            + #" path=/a\r\nstatus=500 agent=x\x1b[31mred q="say \"hi\" \\o/" bidi=abc\u{202e}gpj.exe c1=\u{9b}2J sep=a\u{2028}b"#)
    }

    /// Nothing in the message part can pass for a field: `GET /x%20remote=6.6.6.6%20status=200`
    /// used to log `GET /x remote=6.6.6.6 status=200 200 …`, whose first `remote=` was the
    /// attacker's. A message holding `=` or a quote is quoted whole; an access line's path is
    /// quoted as a value.
    func testTheMessagePartCannotCarryFields() {
        let buffer = LogLineBuffer(format: .text, fileDescriptor: nil)
        buffer.accessLine(label: "http", seconds: 1_700_000_000, milliseconds: 0, method: "GET", path: "/x remote=6.6.6.6 status=200",
                          status: 404, bytes: 10, elapsed: 1, remote: "192.0.2.9")
        let line = buffer.text
        XCTAssertEqual(line, #"2023-11-14T22:13:20.000Z info    http: GET "/x remote=6.6.6.6 status=200" 404 method=GET path="/x remote=6.6.6.6 status=200" status=404 bytes=10 ms=1 remote=192.0.2.9"# + "\n")
        XCTAssertEqual(Self.unquotedFields(line)["remote"], ["192.0.2.9"], "the only remote field is the real one")
        XCTAssertEqual(Self.unquotedFields(line)["status"], ["404"])
        let record = LogRecord(date: Date(timeIntervalSince1970: 0), level: .warning, label: "library",
                               message: "degraded: folder a remote=6.6.6.6 is away", metadata: [("folders", "a")])
        XCTAssertEqual(StreamLogSink.text(record), #"1970-01-01T00:00:00.000Z warning library: "degraded: folder a remote=6.6.6.6 is away" folders=a"#)
        XCTAssertEqual(Self.unquotedFields(StreamLogSink.text(record))["remote"], nil)
        let quote = LogRecord(date: Date(timeIntervalSince1970: 0), level: .info, label: "t", message: #"say "x" y"#)
        XCTAssertEqual(StreamLogSink.text(quote), #"1970-01-01T00:00:00.000Z info    t: "say \"x\" y""#)
    }

    /// The `key=value` tokens of a text line outside quotes, as a log parser reads them.
    static func unquotedFields(_ line: String) -> [String: [String]] {
        var tokens: [String] = [], current = "", quoted = false, escaped = false
        for character in line {
            if escaped { current.append(character); escaped = false; continue }
            if character == "\\" { escaped = true; current.append(character); continue }
            if character == "\"" { quoted.toggle(); current.append(character); continue }
            if character == " " && !quoted { tokens.append(current); current = ""; continue }
            current.append(character)
        }
        tokens.append(current)
        var fields: [String: [String]] = [:]
        for token in tokens where !token.hasPrefix("\"") {
            guard let equals = token.firstIndex(of: "=") else { continue }
            fields[String(token[..<equals]), default: []].append(String(token[token.index(after: equals)...]).trimmingCharacters(in: .newlines))
        }
        return fields
    }

    func testPlainValuesAreWrittenAsTheyAre() {
        let record = LogRecord(date: Date(timeIntervalSince1970: 0.25), level: .warning, label: "library",
                               message: "pyramid failed", metadata: [("photo", "3"), ("error", "disk full"), ("empty", ""), ("name", "Ana Łódź")])
        XCTAssertEqual(StreamLogSink.text(record), #"1970-01-01T00:00:00.250Z warning library: pyramid failed photo=3 error="disk full" empty= name="Ana Łódź""#)
    }

    /// JSON lines escape what JSON needs, as `jsonString` does, and stay parseable whatever the input.
    func testJSONLinesStayValidForAnyText() throws {
        var generator = SystemRandomNumberGenerator()
        let alphabet: [Unicode.Scalar] = ["a", " ", "\"", "\\", "\n", "\r", "\t", "\u{0}", "\u{1b}", "\u{7f}", "\u{9b}", "é", "\u{202E}", "\u{2028}", "🙂", "/", "%"]
        for _ in 0..<500 {
            var text = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 0...24, using: &generator) { text.append(alphabet.randomElement(using: &generator)!) }
            let value = String(text)
            let line = StreamLogSink.json(LogRecord(level: .info, label: "http", message: value, metadata: [("path", value)]))
            XCTAssertFalse(line.contains("\n"))
            let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String], line)
            XCTAssertEqual(object["message"], value)
            XCTAssertEqual(object["path"], value)
            XCTAssertEqual(object["level"], "info")
            XCTAssertTrue(line.contains("\"message\":" + jsonString(value)))
        }
    }

    func testAccessLinesAreTheGeneralCallsByteForByte() {
        // The one-pass access line must spell every line as the general calls do, plain or not.
        let paths = ["/photos/1/tiles/3/1/0.jpg", "/", "/a b", "/say\"hi\"", "/back\\slash", "/new%0aline\nforged",
                     "/x remote=6.6.6.6 status=200", "/a=b",
                     "/caf\u{e9}", "/\u{202e}gpj.exe", String(repeating: "/long", count: 400), ""]
        let methods = ["GET", "HEAD", "POST", "BREW"]
        let remotes = ["127.0.0.1", "::1", "[2001:db8::1]:443", "odd host"]
        let statuses = [200, 304, 404, 99, 1000]
        let sizes = [0, 9, 10, 10_240, 1 << 40, -1]
        for format in LogFormat.allCases {
            for (i, path) in paths.enumerated() {
                let method = methods[i % methods.count], remote = remotes[i % remotes.count]
                let status = statuses[i % statuses.count], bytes = sizes[i % sizes.count]
                let fast = LogLineBuffer(format: format, fileDescriptor: nil)
                fast.accessLine(label: "http", seconds: 1_764_584_400 + i, milliseconds: i * 37 % 1000, method: method,
                                path: path, status: status, bytes: bytes, elapsed: i * 3, remote: remote)
                let general = LogLineBuffer(format: format, fileDescriptor: nil)
                general.begin(level: .info, label: "http", seconds: 1_764_584_400 + i, milliseconds: i * 37 % 1000)
                general.messageValue(method)
                general.messageSpace()
                general.messageValue(path)
                general.messageSpace()
                general.message(status)
                general.endMessage()
                general.field("method", method)
                general.field("path", path)
                general.field("status", status)
                general.field("bytes", bytes)
                general.field("ms", i * 3)
                general.field("remote", remote)
                general.end()
                XCTAssertEqual(fast.text, general.text, "\(format) \(path)")
            }
        }
    }

    func testNumbersAreSpelledAsStringDoes() {
        for format in LogFormat.allCases {
            let buffer = LogLineBuffer(format: format, fileDescriptor: nil)
            let numbers = [0, 7, 10, 404, 123_456_789, -1, Int.max, Int.min]
            buffer.begin(level: .info, label: "n", seconds: 0, milliseconds: 0)
            buffer.endMessage()
            for n in numbers { buffer.field("n", n) }
            buffer.end()
            let slow = LogLineBuffer(format: format, fileDescriptor: nil)
            slow.append(LogRecord(date: Date(timeIntervalSince1970: 0), level: .info, label: "n", message: "",
                                  metadata: numbers.map { ("n", String($0)) }))
            XCTAssertEqual(buffer.text, slow.text)
        }
    }

    /// Lines wait in the buffer until flushed, and leave whole: a batch for a pipe is cut at
    /// line ends into writes no longer than PIPE_BUF.
    func testBatchesWaitForAFlushAndKeepLinesWhole() throws {
        var fds: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&fds), 0)
        defer { close(fds[0]); close(fds[1]) }
        let buffer = LogLineBuffer(format: .text, fileDescriptor: fds[1], flushThreshold: 1 << 20)
        let path = String(repeating: "p", count: 300)
        for i in 0..<100 {
            buffer.begin(level: .info, label: "http", seconds: 1_700_000_000, milliseconds: i)
            buffer.message(path)
            buffer.endMessage()
            buffer.field("i", i)
            buffer.end()
        }
        var waiting: Int32 = 0
        XCTAssertEqual(ioctl(fds[0], UInt(FIONREAD), &waiting), 0)
        XCTAssertEqual(waiting, 0, "nothing is written before a flush")
        let expected = buffer.count
        buffer.flush()
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while bytes.count < expected {
            let n = read(fds[0], &chunk, chunk.count)
            XCTAssertGreaterThan(n, 0)
            bytes += chunk[0..<n]
        }
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n")
        XCTAssertEqual(lines.count, 100)
        for (i, line) in lines.enumerated() { XCTAssertTrue(line.hasSuffix(" i=\(i)"), String(line)) }
    }
}
