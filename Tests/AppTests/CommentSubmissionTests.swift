import Observability
import HTTP
import XCTest
@testable import App

/// Decoding and cleaning a submitted comment, without a server.
final class CommentSubmissionTests: XCTestCase {
    private func decode(_ body: String, _ contentType: String? = "application/json") throws -> CommentSubmission {
        try CommentSubmission.decode(body: Array(body.utf8), contentType: contentType).0
    }

    private func failure(_ body: [UInt8], _ contentType: String? = "application/json") -> HTTPError? {
        do {
            _ = try CommentSubmission.decode(body: body, contentType: contentType)
            return nil
        } catch {
            return error as? HTTPError
        }
    }

    private func failure(_ body: String, _ contentType: String? = "application/json") -> HTTPError? {
        failure(Array(body.utf8), contentType)
    }

    func testAValidJSONCommentIsKeptAsGiven() throws {
        XCTAssertEqual(try decode(#"{"text":"Looks like a Pip","author":"Ana"}"#), CommentSubmission(text: "Looks like a Pip", author: "Ana"))
        XCTAssertEqual(try decode(#"{"text":"<script>alert(1)</script> &amp;","extra":true}"#).text, "<script>alert(1)</script> &amp;")
    }

    func testMissingNullOrBlankAuthorIsAnonymous() throws {
        XCTAssertEqual(try decode(#"{"text":"hi"}"#).author, "Anonymous")
        XCTAssertEqual(try decode(#"{"text":"hi","author":null}"#).author, "Anonymous")
        XCTAssertEqual(try decode(#"{"text":"hi","author":"  \t "}"#).author, "Anonymous")
        XCTAssertEqual(try decode(#"{"text":"hi","author":"  Ana \n"}"#).author, "Ana")
    }

    func testWrongTypesNameTheField() {
        XCTAssertEqual(failure(#"{"text":5}"#)?.detail, "text must be a string.")
        XCTAssertEqual(failure(#"{"text":"hi","author":["Ana"]}"#)?.detail, "author must be a string.")
        XCTAssertEqual(failure(#"["text"]"#)?.status, .badRequest)
        XCTAssertEqual(failure(#""just a string""#)?.detail.contains("JSON object"), true)
        XCTAssertEqual(failure(#"{"author":"Ana"}"#)?.detail.hasPrefix("text is required"), true)
    }

    func testMalformedJSONAndInvalidUTF8Are400() {
        XCTAssertEqual(failure(#"{"text":"#)?.status, .badRequest)
        XCTAssertEqual(failure("")?.detail, "The body is not valid JSON.")
        XCTAssertEqual(failure(Array(#"{"text":""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8))?.detail, "The body is not valid UTF-8.")
        XCTAssertEqual(failure([0xFF, 0xFE], "application/x-www-form-urlencoded")?.status, .badRequest)
        XCTAssertEqual(failure("text=%C3%28", "application/x-www-form-urlencoded")?.status, .badRequest,
                       "percent-escapes must decode to UTF-8 too")
    }

    func testEmptyOrWhitespaceTextIs400() {
        for text in ["", "   ", "\n\t\r\n", "\u{0}\u{7}"] {
            let json = "{\"text\":\(jsonString(text))}"
            XCTAssertEqual(failure(json)?.detail, "text must not be empty.", json)
        }
    }

    func testTextLengthCountsCharactersNotBytes() throws {
        XCTAssertEqual(try decode("{\"text\":\"\(String(repeating: "a", count: 2000))\"}").text.count, 2000)
        XCTAssertEqual(failure("{\"text\":\"\(String(repeating: "a", count: 2001))\"}")?.detail,
                       "text is 2001 characters long; the most is 2000.")
        // 2000 family emoji: 7 scalars and 25 UTF-8 bytes each, but one character each.
        let family = String(repeating: "👩‍👩‍👧‍👦", count: 2000)
        XCTAssertEqual(try CommentSubmission.validate(text: family, author: nil).text.count, 2000)
        XCTAssertNotNil(try? CommentSubmission.validate(text: String(repeating: "e\u{301}", count: 2000), author: nil),
                        "e + combining accent is one character")
        XCTAssertEqual(try decode("{\"text\":\"x\",\"author\":\"\(String(repeating: "é", count: 80))\"}").author.count, 80)
        XCTAssertEqual(failure("{\"text\":\"x\",\"author\":\"\(String(repeating: "b", count: 81))\"}")?.detail,
                       "author is 81 characters long; the most is 80.")
    }

    func testControlCharactersAreStrippedAndLineEndingsNormalised() throws {
        let raw = "a\u{0}b\u{7}c\u{1B}[31md\u{7F}e\u{85}f\r\ng\rh\ni\tj"
        XCTAssertEqual(CommentSubmission.cleaned(raw, singleLine: false), "abc[31mdef\ng\nh\ni\tj")
        XCTAssertEqual(try CommentSubmission.validate(text: "x", author: "An\u{0}a\r\nB\tC").author, "Ana B C")
        XCTAssertEqual(try CommentSubmission.validate(text: "  keep\r\n  spacing  ", author: nil).text, "  keep\n  spacing  ")
        XCTAssertEqual(CommentSubmission.cleaned("\r\r\n", singleLine: false), "\n\n", "a lone CR then a CRLF are two line breaks")
    }

    /// Bidirectional overrides and isolates would show a comment (or an author name) in another
    /// order than it was written; they are removed from both, other right-to-left text is kept.
    func testBidirectionalOverridesAreStrippedFromTextAndAuthor() throws {
        let spoof = try decode(#"{"text":"my photo gpj\u202E.exe \u2066isolated\u2069 \u202Aembedded\u202C \u202Bx\u202D\u2067y\u2068","author":"Ana\u202Enimda"}"#)
        XCTAssertEqual(spoof.text, "my photo gpj.exe isolated embedded xy")
        XCTAssertEqual(spoof.author, "Ananimda")
        for scalar in (0x202A...0x202E).map({ Unicode.Scalar($0)! }) + (0x2066...0x2069).map({ Unicode.Scalar($0)! }) {
            XCTAssertFalse(spoof.text.unicodeScalars.contains(scalar) || spoof.author.unicodeScalars.contains(scalar))
        }
        // Hebrew and Arabic themselves, and the marks U+200E/U+200F, stay.
        XCTAssertEqual(try decode(#"{"text":"שלום مرحبا \u200F!"}"#).text, "שלום مرحبا \u{200F}!")
        // A comment made only of overrides is empty.
        XCTAssertEqual(failure(#"{"text":"\u202E\u2066"}"#)?.status, .badRequest)
    }

    func testFormPostsAreDecoded() throws {
        let (submission, format) = try CommentSubmission.decode(
            body: Array("author=Ana+B&text=Looks+like+a+Pip%21%0D%0Asecond+line&ignored=1".utf8),
            contentType: "application/x-www-form-urlencoded; charset=UTF-8")
        XCTAssertEqual(format, .form)
        XCTAssertEqual(submission, CommentSubmission(text: "Looks like a Pip!\nsecond line", author: "Ana B"))
        XCTAssertEqual(try decode("text=%F0%9F%8C%B8", "application/x-www-form-urlencoded").text, "🌸")
        XCTAssertEqual(failure("author=Ana", "application/x-www-form-urlencoded")?.status, .badRequest)
    }

    func testOtherContentTypesAre415() {
        XCTAssertEqual(failure(#"{"text":"hi"}"#, "text/plain")?.status, .unsupportedMediaType)
        XCTAssertEqual(failure(#"{"text":"hi"}"#, nil)?.status, .unsupportedMediaType)
        XCTAssertEqual(failure(#"{"text":"hi"}"#, "multipart/form-data; boundary=x")?.status, .unsupportedMediaType)
        XCTAssertEqual(failure(#"{"text":"hi"}"#, "application/json; charset=latin1")?.status, .unsupportedMediaType)
        XCTAssertNil(failure(#"{"text":"hi"}"#, "Application/JSON; Charset=\"utf-8\""))
    }

    func testAcceptPreference() {
        XCTAssertTrue(AcceptPreference.prefersJSON("application/json"))
        XCTAssertTrue(AcceptPreference.prefersJSON("application/json, text/plain, */*"))
        XCTAssertTrue(AcceptPreference.prefersJSON("text/html;q=0.5, application/*"))
        XCTAssertFalse(AcceptPreference.prefersJSON(nil))
        XCTAssertFalse(AcceptPreference.prefersJSON("*/*"))
        XCTAssertFalse(AcceptPreference.prefersJSON("text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"))
        XCTAssertFalse(AcceptPreference.prefersJSON("application/json;q=0, */*"))
    }
}
