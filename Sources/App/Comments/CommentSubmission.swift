import Foundation
import HTTP

/// A comment as a client submitted it, decoded, cleaned and checked; ready to store.
///
/// Rules, each answered with a 400 that names the field when broken:
/// - The body is UTF-8: JSON `{"text":…,"author":…}` or an HTML form (`text`, `author` fields).
/// - `text` is required, a string, not empty once surrounding whitespace is ignored, and at most
///   2000 characters. Characters are what a person sees as one (Swift `Character`s, extended
///   grapheme clusters), so "👩‍👩‍👧" counts once and an accented letter counts once however it is encoded.
/// - `author` is optional; missing, null or blank becomes "Anonymous"; at most 80 characters.
///   The route then decides whose it is (`CommentPoster`): a signed-in person's account name
///   replaces it, and anyone else's that is an account's name is refused with a 422.
/// - Line endings become `\n` (CRLF and lone CR alike); other control characters except tab are
///   removed. Authors are one line: their line breaks and tabs become spaces, and they are trimmed.
/// - Bidirectional embedding, override and isolate controls (U+202A–U+202E, U+2066–U+2069) are
///   removed: they make text display in another order than it is stored ("gpj.exe" shown as
///   "exe.jpg"), and would reorder the page around the comment.
/// Text is otherwise kept exactly as given; it is never interpreted as HTML.
struct CommentSubmission: Equatable, Sendable {
    var text: String
    var author: String
    /// Whether `author` is the poster's account (set by the route for a signed-in person, never from the body).
    var verified = false

    /// How the body was sent, which decides how a success is answered.
    enum Format: Equatable, Sendable {
        case json
        case form
    }

    static let maxTextCharacters = 2000
    static let maxAuthorCharacters = 80
    static let anonymous = "Anonymous"

    /// Decodes a request body by its `Content-Type`; 415 for types other than JSON and forms.
    static func decode(body: [UInt8], contentType: String?) throws -> (CommentSubmission, Format) {
        let format = try format(of: contentType)
        guard let bodyText = String(validating: body, as: UTF8.self) else {
            throw HTTPError(.badRequest, "The body is not valid UTF-8.")
        }
        let fields: (text: String?, author: String?)
        switch format {
        case .json: fields = try jsonFields(body)
        case .form: fields = try formFields(bodyText)
        }
        return (try validate(text: fields.text, author: fields.author), format)
    }

    /// Cleans and checks the two fields.
    static func validate(text rawText: String?, author rawAuthor: String?) throws -> CommentSubmission {
        guard let rawText else { throw HTTPError(.badRequest, "text is required: send {\"text\":\"…\"}.") }
        let text = cleaned(rawText, singleLine: false)
        guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw HTTPError(.badRequest, "text must not be empty.")
        }
        let length = text.count
        guard length <= maxTextCharacters else {
            throw HTTPError(.badRequest, "text is \(length) characters long; the most is \(maxTextCharacters).")
        }
        var author = cleaned(rawAuthor ?? "", singleLine: true).trimmingCharacters(in: .whitespaces)
        if author.isEmpty { author = anonymous }
        let authorLength = author.count
        guard authorLength <= maxAuthorCharacters else {
            throw HTTPError(.badRequest, "author is \(authorLength) characters long; the most is \(maxAuthorCharacters).")
        }
        return CommentSubmission(text: text, author: author)
    }

    /// CRLF and lone CR become LF, and control characters other than LF and tab are dropped, as
    /// are bidirectional overrides and isolates; with `singleLine`, LF and tab become spaces as well.
    static func cleaned(_ input: String, singleLine: Bool) -> String {
        var out = String.UnicodeScalarView()
        var previousWasCR = false
        for scalar in input.unicodeScalars {
            defer { previousWasCR = scalar == "\r" }
            switch scalar {
            case "\n":
                if previousWasCR { continue } // the CR already became this line break
                out.append(singleLine ? " " : "\n")
            case "\r":
                out.append(singleLine ? " " : "\n")
            case "\t":
                out.append(singleLine ? " " : "\t")
            case "\u{202A}"..."\u{202E}", "\u{2066}"..."\u{2069}":
                continue
            default:
                if scalar.properties.generalCategory != .control { out.append(scalar) }
            }
        }
        return String(out)
    }

    private static func format(of contentType: String?) throws -> Format {
        let parts = (contentType ?? "").split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        let mediaType = parts.first ?? ""
        let charset = parts.dropFirst().first { $0.hasPrefix("charset=") }.map { $0.dropFirst(8).trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
        if let charset, charset != "utf-8", charset != "utf8" {
            throw HTTPError(.unsupportedMediaType, "Send the comment in UTF-8, not \(charset).")
        }
        switch mediaType {
        case "application/json": return .json
        case "application/x-www-form-urlencoded": return .form
        case "": throw HTTPError(.unsupportedMediaType, "Say what the body is: Content-Type: application/json.")
        default: throw HTTPError(.unsupportedMediaType, "A comment is sent as application/json (or as an HTML form), not \(mediaType).")
        }
    }

    private struct JSONBody: Decodable {
        var text: String?
        var author: String?
    }

    private static func jsonFields(_ body: [UInt8]) throws -> (text: String?, author: String?) {
        do {
            let decoded = try JSONDecoder().decode(JSONBody.self, from: Data(body))
            return (decoded.text, decoded.author)
        } catch DecodingError.typeMismatch(_, let context) {
            if let field = context.codingPath.first?.stringValue {
                throw HTTPError(.badRequest, "\(field) must be a string.")
            }
            throw HTTPError(.badRequest, "The body must be a JSON object like {\"text\":\"…\",\"author\":\"…\"}.")
        } catch {
            throw HTTPError(.badRequest, "The body is not valid JSON.")
        }
    }

    private static func formFields(_ body: String) throws -> (text: String?, author: String?) {
        var text: String?
        var author: String?
        for pair in body.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0])
            guard name == "text" || name == "author" else { continue }
            let raw = parts.count > 1 ? String(parts[1]) : ""
            guard let value = HTTPRequest.percentDecode(raw.replacingOccurrences(of: "+", with: " ")) else {
                throw HTTPError(.badRequest, "\(name) is not valid form encoding of UTF-8 text.")
            }
            if name == "text", text == nil { text = value }
            if name == "author", author == nil { author = value }
        }
        return (text, author)
    }
}
