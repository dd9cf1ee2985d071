/// Reads a `multipart/form-data` body (RFC 7578) as it streams in, in pieces of any size: part
/// heads whole, part contents as runs of bytes, never more than one piece plus a delimiter's
/// length held. What a script's `curl -F file=@a.jpg` sends.
public struct MultipartReader: Sendable {
    /// What the body holds, in order.
    public enum Event: Equatable {
        /// A part begins; its `Content-Disposition` parameters.
        case part(name: String, fileName: String?)
        /// The next bytes of the current part.
        case data([UInt8])
        /// The current part is complete.
        case partEnd
    }

    /// Why the body cannot be read as a form.
    public struct Problem: Error, Equatable, CustomStringConvertible {
        public let description: String
    }

    enum State: Equatable { case preamble, afterDelimiter, head, content, done }

    /// `CRLF--boundary`: what ends one part's content.
    private let delimiter: [UInt8]
    private var state = State.preamble
    /// Bytes kept from the last piece: possibly the start of a delimiter, or an unfinished head.
    private var carry: [UInt8]
    private var parts = 0

    /// Longest part head, and most parts.
    public static let maxHeadBytes = 8192
    public static let maxParts = 64

    /// Whether the closing delimiter has been read.
    public var isComplete: Bool { state == .done }

    /// A reader for `boundary`, the parameter of the body's `Content-Type`.
    public init(boundary: String) {
        delimiter = Array("\r\n--".utf8) + Array(boundary.utf8)
        // The first delimiter may start the body without a CRLF before it: lend it one.
        carry = [13, 10]
    }

    /// The `boundary` parameter of a `multipart/form-data` content type, or nil when it is not one.
    public static func boundary(contentType: String) -> String? {
        let parts = contentType.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        guard let type = parts.first, type.lowercased() == "multipart/form-data" else { return nil }
        for parameter in parts.dropFirst() {
            guard let equals = parameter.firstIndex(of: "=") else { continue }
            guard parameter[..<equals].trimmingCharacters(in: .whitespaces).lowercased() == "boundary" else { continue }
            var value = parameter[parameter.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
            // RFC 2046: 1 to 70 characters.
            guard (1...70).contains(value.utf8.count), value.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7f }), value.utf8.last != 0x20 else { return nil }
            return value
        }
        return nil
    }

    /// Reads the next piece, handing what it finds to `handle` in order.
    public mutating func feed(_ piece: [UInt8], _ handle: (Event) throws -> Void) throws {
        var buffer = carry
        buffer.reserveCapacity(carry.count + piece.count)
        buffer.append(contentsOf: piece)
        carry = []
        var position = 0
        while position < buffer.count || state == .done {
            switch state {
            case .done:
                return  // the epilogue is ignored
            case .preamble, .content:
                if let found = Self.find(delimiter, in: buffer, from: position) {
                    if state == .content {
                        if found > position { try handle(.data(Array(buffer[position..<found]))) }
                        try handle(.partEnd)
                    }
                    position = found + delimiter.count
                    state = .afterDelimiter
                } else {
                    // Whatever could begin a delimiter waits for the next piece.
                    let keep = min(buffer.count - position, delimiter.count - 1)
                    let end = buffer.count - keep
                    if state == .content && end > position { try handle(.data(Array(buffer[position..<end]))) }
                    carry = Array(buffer[end...])
                    return
                }
            case .afterDelimiter:
                guard buffer.count - position >= 2 else {
                    carry = Array(buffer[position...])
                    return
                }
                if buffer[position] == UInt8(ascii: "-") && buffer[position + 1] == UInt8(ascii: "-") {
                    state = .done
                    return
                }
                // Transport padding (spaces, tabs) may follow a delimiter before its CRLF.
                var cursor = position
                while cursor < buffer.count && (buffer[cursor] == 32 || buffer[cursor] == 9) { cursor += 1 }
                guard buffer.count - cursor >= 2 else {
                    carry = Array(buffer[position...])
                    return
                }
                guard buffer[cursor] == 13 && buffer[cursor + 1] == 10 else { throw Problem(description: "A multipart delimiter is not followed by a line end.") }
                position = cursor + 2
                state = .head
            case .head:
                guard let end = Self.find([13, 10, 13, 10], in: buffer, from: position) else {
                    guard buffer.count - position <= Self.maxHeadBytes else { throw Problem(description: "A multipart part's head is longer than \(Self.maxHeadBytes) bytes.") }
                    carry = Array(buffer[position...])
                    return
                }
                guard end - position <= Self.maxHeadBytes else { throw Problem(description: "A multipart part's head is longer than \(Self.maxHeadBytes) bytes.") }
                parts += 1
                guard parts <= Self.maxParts else { throw Problem(description: "The form has more than \(Self.maxParts) parts.") }
                let head = String(decoding: buffer[position..<end], as: UTF8.self)
                let (name, fileName) = try Self.disposition(head)
                try handle(.part(name: name, fileName: fileName))
                // Content starts after the blank line; the CRLF before the next delimiter belongs to it.
                position = end + 4
                state = .content
            }
        }
    }

    /// The form field name and file name of a part head's `Content-Disposition`.
    static func disposition(_ head: String) throws -> (String, String?) {
        for line in head.split(separator: "\r\n") {
            guard let colon = line.firstIndex(of: ":"),
                  line[..<colon].trimmingCharacters(in: .whitespaces).lowercased() == "content-disposition" else { continue }
            let parameters = Self.parameters(String(line[line.index(after: colon)...]))
            guard let name = parameters["name"] else { break }
            var fileName = parameters["filename"]
            if let extended = parameters["filename*"], let decoded = Self.extendedValue(extended) { fileName = decoded }
            return (name, fileName)
        }
        throw Problem(description: "A multipart part has no Content-Disposition with a name.")
    }

    /// `form-data; name="a"; filename="b.jpg"` → ["name": "a", "filename": "b.jpg"], quoted strings unescaped.
    static func parameters(_ value: String) -> [String: String] {
        var result: [String: String] = [:]
        var scalars = Array(value.unicodeScalars)[...]
        // The disposition type first.
        while let first = scalars.first, first != ";" { scalars.removeFirst() }
        while !scalars.isEmpty {
            scalars.removeFirst()  // ';'
            while let first = scalars.first, first == " " || first == "\t" { scalars.removeFirst() }
            var name = ""
            while let first = scalars.first, first != "=" && first != ";" { name.unicodeScalars.append(first); scalars.removeFirst() }
            guard scalars.first == "=" else { continue }
            scalars.removeFirst()
            var text = ""
            if scalars.first == "\"" {
                scalars.removeFirst()
                while let scalar = scalars.first {
                    scalars.removeFirst()
                    if scalar == "\"" { break }
                    if scalar == "\\", let next = scalars.first {
                        scalars.removeFirst()
                        text.unicodeScalars.append(next)
                    } else {
                        text.unicodeScalars.append(scalar)
                    }
                }
                while let first = scalars.first, first != ";" { scalars.removeFirst() }
            } else {
                while let first = scalars.first, first != ";" { text.unicodeScalars.append(first); scalars.removeFirst() }
                text = text.trimmingCharacters(in: .whitespaces)
            }
            result[name.trimmingCharacters(in: .whitespaces).lowercased()] = text
        }
        return result
    }

    /// RFC 8187 `UTF-8''caf%C3%A9.jpg` → `café.jpg`.
    static func extendedValue(_ value: String) -> String? {
        let parts = value.split(separator: "'", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].lowercased() == "utf-8" else { return nil }
        var bytes: [UInt8] = []
        var iterator = parts[2].utf8.makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "%") {
                guard let high = iterator.next(), let low = iterator.next(), let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16) else { return nil }
                bytes.append(value)
            } else {
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// Where `needle` first begins in `haystack` at or after `from`, or nil.
    static func find(_ needle: [UInt8], in haystack: [UInt8], from: Int) -> Int? {
        guard needle.count > 0, haystack.count - from >= needle.count else { return nil }
        let first = needle[0]
        return haystack.withUnsafeBufferPointer { hay in
            needle.withUnsafeBufferPointer { pin in
                var index = from
                let last = hay.count - pin.count
                while index <= last {
                    if hay[index] == first {
                        var matched = 1
                        while matched < pin.count && hay[index + matched] == pin[matched] { matched += 1 }
                        if matched == pin.count { return index }
                    }
                    index += 1
                }
                return nil
            }
        }
    }
}
