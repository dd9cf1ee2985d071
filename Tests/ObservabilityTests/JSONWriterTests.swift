import Foundation
import XCTest
import Observability

/// The one JSON path: every answer's bytes come from `JSONWriter`, every string in them (and in
/// log lines) is escaped by `JSONEscaping`; both are checked against a JSON parser here.
final class JSONWriterTests: XCTestCase {
    /// Characters that break hand-written JSON, JavaScript string literals or log lines. (U+FEFF
    /// is left to the Python check: Foundation's parser drops it from strings.)
    static let hostile: [Unicode.Scalar] = [
        "a", " ", "\"", "\\", "/", "\n", "\r", "\t", "\u{0}", "\u{1}", "\u{8}", "\u{c}", "\u{1b}", "\u{1f}", "\u{7f}",
        "\u{85}", "\u{9b}", "é", "\u{2027}", "\u{2028}", "\u{2029}", "\u{202a}", "\u{202e}", "\u{2066}", "\u{e2}", "“",
        "\u{fffd}", "🙂", "<", ">", "&", "'", "%", "}", "]", ",", ":",
    ]

    static func randomText(_ generator: inout some RandomNumberGenerator) -> String {
        var text = String.UnicodeScalarView()
        for _ in 0..<Int.random(in: 0...40, using: &generator) { text.append(hostile.randomElement(using: &generator)!) }
        return String(text)
    }

    struct Record: Encodable {
        let name: String
        let tags: [String]
        let inner: Inner
        struct Inner: Encodable { let note: String? }
    }

    func testHostileStringsParseBackAsThemselvesAndNeverCarryRawSeparatorsOrControls() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let a = Self.randomText(&generator), b = Self.randomText(&generator)
            let bytes = try JSONWriter.bytes(Record(name: a, tags: [b, a], inner: .init(note: b)))
            let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any], String(decoding: bytes, as: UTF8.self))
            XCTAssertEqual(object["name"] as? String, a)
            XCTAssertEqual(object["tags"] as? [String], [b, a])
            XCTAssertEqual((object["inner"] as? [String: String])?["note"], b)
            let text = String(decoding: bytes, as: UTF8.self)
            XCTAssertFalse(bytes.contains { $0 < 0x20 }, text)
            XCTAssertFalse(text.unicodeScalars.contains { $0 == "\u{2028}" || $0 == "\u{2029}" }, text)

            // The hand-written spelling is the same rule, byte for byte.
            XCTAssertEqual(try JSONWriter.string(a), jsonString(a))
        }
    }

    /// A second, strict parser: Python's `json` refuses raw control characters in strings.
    func testPythonReadsEveryHostileStringBack() throws {
        let python = ["/usr/bin/python3", "/usr/local/bin/python3"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let python else { throw XCTSkip("python3 is not installed") }
        var generator = SystemRandomNumberGenerator()
        let texts = (0..<1_000).map { _ in Self.randomText(&generator) + "\u{feff}\u{2028}\u{0}" }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("json-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // One JSON text per line, and the same strings as UTF-8 with their lengths, for comparison.
        try Data(try texts.map { try JSONWriter.string(Record(name: $0, tags: [$0], inner: .init(note: nil))) }
            .joined(separator: "\n").utf8).write(to: folder.appendingPathComponent("written"))
        try Data(texts.map { "\($0.utf8.count):" + $0 }.joined().utf8).write(to: folder.appendingPathComponent("expected"))
        let script = """
        import json, sys
        lines = open(sys.argv[1] + "/written", encoding="utf-8").read().split("\\n")
        raw = open(sys.argv[1] + "/expected", "rb").read()
        expected, at = [], 0
        while at < len(raw):
            colon = raw.index(b":", at)
            n = int(raw[at:colon]); expected.append(raw[colon + 1:colon + 1 + n].decode("utf-8")); at = colon + 1 + n
        assert len(lines) == len(expected), (len(lines), len(expected))
        for line, text in zip(lines, expected):
            value = json.loads(line, strict=True)
            assert value == {"name": text, "tags": [text], "inner": {}}, (line, text)
            assert "\\u2028" not in line and "\\u2029" not in line
        print("ok", len(lines))
        """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-c", script, folder.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, printed)
        XCTAssertEqual(printed, "ok 1000\n")
    }

    func testEscapesAreTheShortAndTheUnicodeForms() throws {
        XCTAssertEqual(jsonString("q\"b\\n\nr\rt\t\u{0}\u{1f}\u{7f}/"), #""q\"b\\n\nr\rt\t\u0000\u001f"# + "\u{7f}/\"")
        XCTAssertEqual(jsonString("a\u{2028}b\u{2029}c\u{2027}\u{202a}“é🙂"), #""a\u2028b\u2029c"# + "\u{2027}\u{202a}“é🙂\"")
        // A lone 0xE2 lead at the end, or followed by other bytes, is copied as it is.
        XCTAssertEqual(jsonString("\u{2000}\u{20ac}"), "\"\u{2000}\u{20ac}\"")
        // Long plain runs take the word-at-a-time path; an escape in the tail is still found.
        let long = String(repeating: "abcdefgh", count: 9) + "\u{2028}"
        XCTAssertEqual(jsonString(long), "\"" + String(repeating: "abcdefgh", count: 9) + "\\u2028\"")
    }

    struct Ordered: Encodable {
        let zebra = 1
        let apple = "a"
        let missing: Int? = nil
        let explicit: Nullable<Int> = nil
        let present: Nullable<String> = Nullable("x")
        let fragment = JSONFragment(trusted: #"{"kept":[1,2],"as":"is"}"#)
        let empty: [Int] = []
        let nested: [[Int]] = [[1, 2], [], [3]]
        let flag = false
    }

    func testMembersComeInDeclarationOrderNilIsLeftOutAndFragmentsAreCopied() throws {
        XCTAssertEqual(try JSONWriter.string(Ordered()),
                       #"{"zebra":1,"apple":"a","explicit":null,"present":"x","fragment":{"kept":[1,2],"as":"is"},"empty":[],"nested":[[1,2],[],[3]],"flag":false}"#)
    }

    func testNumbersAreTheirShortestSpelling() throws {
        XCTAssertEqual(try JSONWriter.string([1.8, 2, 0.000125, -0.5, 1.333, 0, 1e20, 1e-7]), "[1.8,2,0.000125,-0.5,1.333,0,1e+20,1e-07]")
        XCTAssertEqual(try JSONWriter.string([Int.min, Int.max, 0, -1]), "[-9223372036854775808,9223372036854775807,0,-1]")
        XCTAssertEqual(try JSONWriter.string([UInt64.max]), "[18446744073709551615]")
        XCTAssertEqual(try JSONWriter.string([Float(0.1), 3]), "[0.1,3]")
        for value in [Double.nan, .infinity, -.infinity] {
            XCTAssertThrowsError(try JSONWriter.bytes(["x": value]))
        }
        // Every spelling is a JSON number (RFC 8259's grammar) that reads back as the same double.
        // (Foundation's parser rounds some long numbers, so each is read by `Double(_:)`.)
        var generator = SystemRandomNumberGenerator()
        let numbers = (0..<2_000).map { _ in Double(bitPattern: generator.next()) }.filter(\.isFinite)
        let text = try JSONWriter.string(numbers)
        let grammar = try NSRegularExpression(pattern: #"^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$"#)
        let spelled = text.dropFirst().dropLast().split(separator: ",").map(String.init)
        XCTAssertEqual(spelled.count, numbers.count)
        for (spelling, number) in zip(spelled, numbers) {
            XCTAssertNotNil(grammar.firstMatch(in: spelling, range: NSRange(spelling.startIndex..., in: spelling)), spelling)
            XCTAssertEqual(Double(spelling), number, spelling)
        }
    }

    /// Two values writing into one encoder's keyed container make one object (an album's
    /// members, then its page); a subclass and its superclass the same way.
    struct Head: Encodable { let id: Int; let title: String }
    struct Tail: Encodable { let photos: [Int]; let next: Nullable<String> }
    struct Both: Encodable {
        let head: Head, tail: Tail
        func encode(to encoder: any Encoder) throws {
            try head.encode(to: encoder)
            try tail.encode(to: encoder)
        }
    }

    class Base: Encodable {
        var base = 1
        enum CodingKeys: String, CodingKey { case base }
    }
    final class Derived: Base {
        let derived = "d"
        enum Keys: String, CodingKey { case derived }
        override func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(derived, forKey: .derived)
            try super.encode(to: container.superEncoder())
        }
    }

    struct Hand: Encodable {
        func encode(to encoder: any Encoder) throws {
            var object = encoder.container(keyedBy: AnyKey.self)
            var list = object.nestedUnkeyedContainer(forKey: AnyKey("list"))
            try list.encode(1)
            var inner = list.nestedContainer(keyedBy: AnyKey.self)
            try inner.encode("v", forKey: AnyKey("k"))
            try list.encode(2)
            try object.encode(true, forKey: AnyKey("after"))
            var deep = object.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey("deep"))
            try deep.encodeNil(forKey: AnyKey("n"))
        }
    }

    struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    struct Silent: Encodable { func encode(to encoder: any Encoder) throws {} }

    func testContainersNestAndCloseWhereverTheValueGoesOn() throws {
        XCTAssertEqual(try JSONWriter.string(Both(head: Head(id: 3, title: "Trip"), tail: Tail(photos: [1, 2], next: nil))),
                       #"{"id":3,"title":"Trip","photos":[1,2],"next":null}"#)
        XCTAssertEqual(try JSONWriter.string(Derived()), #"{"derived":"d","super":{"base":1}}"#)
        XCTAssertEqual(try JSONWriter.string(Hand()), #"{"list":[1,{"k":"v"},2],"after":true,"deep":{"n":null}}"#)
        XCTAssertEqual(try JSONWriter.string([Silent(), Silent()]), "[{},{}]")
        XCTAssertEqual(try JSONWriter.string(Nullable<Int>(nil)), "null")
        XCTAssertEqual(try JSONWriter.string("top"), #""top""#)
    }

    func testAFragmentRefusesAnyOtherEncoder() {
        XCTAssertThrowsError(try JSONEncoder().encode([JSONFragment(trusted: "{}")]))
    }

    /// The one rule also holds inside log lines, which keep their own writer.
    func testLogLinesEscapeByTheSameRule() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            let value = Self.randomText(&generator)
            let line = StreamLogSink.json(LogRecord(level: .info, label: "http", message: value, metadata: [("path", value)]))
            XCTAssertTrue(line.contains("\"message\":" + jsonString(value)), line)
            XCTAssertFalse(line.unicodeScalars.contains { $0 == "\u{2028}" || $0 == "\u{2029}" }, line)
            let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String], line)
            XCTAssertEqual(object["path"], value)
        }
    }
}
