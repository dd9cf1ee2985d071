/// Decodes a chunked request body (RFC 9112 §7.1) incrementally: feed it whatever bytes have
/// arrived; it appends the data it finds and remembers where it stopped. Extensions and trailer
/// fields are read and dropped.
struct ChunkedDecoder: Sendable {
    enum State: Sendable, Equatable {
        case size
        case data(remaining: Int)
        case dataEnd
        case trailers
        case done
    }

    enum Outcome: Equatable {
        case needMore
        case done
        case invalid(RequestError)
    }

    private(set) var state: State = .size
    /// Largest body accepted; one byte more is 413.
    let maxBodyBytes: Int
    /// Largest chunk-size line or trailer line.
    let maxLineBytes: Int
    private var trailerBytes = 0

    init(maxBodyBytes: Int, maxLineBytes: Int = 4096) {
        self.maxBodyBytes = maxBodyBytes
        self.maxLineBytes = maxLineBytes
    }

    /// Decodes from `bytes`, appending chunk data to `body`; returns how many bytes it used.
    mutating func decode(_ bytes: UnsafeBufferPointer<UInt8>, into body: inout [UInt8]) -> (consumed: Int, outcome: Outcome) {
        var position = 0
        while true {
            switch state {
            case .done:
                return (position, .done)
            case .size:
                switch RequestParser.findLineEnd(bytes, from: position, limit: maxLineBytes) {
                case .needMore: return (position, .needMore)
                case .tooLong: return (position, .invalid(.bad("A chunk-size line is too long.")))
                case .invalid(let error): return (position, .invalid(error))
                case .line(let line):
                    var size = 0, digits = 0, index = line.lowerBound
                    while index < line.upperBound, let value = RequestParser.hexDigit(bytes[index]) {
                        guard digits < 15 else { return (position, .invalid(.bad("A chunk size is too large."))) }
                        size = size << 4 | value
                        digits += 1
                        index += 1
                    }
                    if digits == 0 {
                        return (position, .invalid(.bad("A chunk size must be hexadecimal digits.")))
                    }
                    // Only chunk extensions may follow the size, exactly as RFC 9112 §7.1.1 spells
                    // them: whitespace alone ("d \r\n") is no extension.
                    guard Self.isExtensionList(bytes, from: index, to: line.upperBound) else {
                        return (position, .invalid(.bad("A chunk size may be followed only by chunk extensions (;name=value).")))
                    }
                    if body.count + size > maxBodyBytes {
                        return (position, .invalid(RequestError(.contentTooLarge, "The request body is larger than \(maxBodyBytes) bytes.")))
                    }
                    position = line.upperBound + 2
                    state = size == 0 ? .trailers : .data(remaining: size)
                }
            case .data(let remaining):
                let available = min(remaining, bytes.count - position)
                if available == 0 { return (position, .needMore) }
                body.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[position..<(position + available)]))
                position += available
                state = remaining == available ? .dataEnd : .data(remaining: remaining - available)
            case .dataEnd:
                guard bytes.count - position >= 2 else { return (position, .needMore) }
                guard bytes[position] == RequestParser.cr, bytes[position + 1] == RequestParser.lf else {
                    return (position, .invalid(.bad("Chunk data must be followed by CRLF.")))
                }
                position += 2
                state = .size
            case .trailers:
                switch RequestParser.findLineEnd(bytes, from: position, limit: maxLineBytes - trailerBytes) {
                case .needMore: return (position, .needMore)
                case .tooLong: return (position, .invalid(RequestError(.requestHeaderFieldsTooLarge, "The trailer section is too large.")))
                case .invalid(let error): return (position, .invalid(error))
                case .line(let line):
                    position = line.upperBound + 2
                    trailerBytes += line.count + 2
                    if line.isEmpty {
                        state = .done
                    } else if case .failure(let error) = RequestParser.parseField(bytes, line) {
                        return (position, .invalid(error))
                    }
                }
            }
        }
    }
}

extension ChunkedDecoder {
    /// Whether `bytes[from..<to]` is `*( BWS ";" BWS chunk-ext-name [ BWS "=" BWS chunk-ext-val ] )`,
    /// where a name is a token and a value a token or a quoted-string (RFC 9112 §7.1.1, RFC 9110 §5.6).
    static func isExtensionList(_ bytes: UnsafeBufferPointer<UInt8>, from: Int, to end: Int) -> Bool {
        var i = from
        func skipWhitespace() { while i < end, bytes[i] == RequestParser.space || bytes[i] == RequestParser.tab { i += 1 } }
        func token() -> Bool {
            let start = i
            while i < end, RequestParser.isTokenByte(bytes[i]) { i += 1 }
            return i > start
        }
        func quotedString() -> Bool {
            guard i < end, bytes[i] == 0x22 else { return false }
            i += 1
            while i < end {
                let byte = bytes[i]
                if byte == 0x22 { i += 1; return true }
                if byte == 0x5C {
                    // quoted-pair: a backslash and one HTAB, SP, VCHAR or obs-text.
                    guard i + 1 < end, Self.isQuotedText(bytes[i + 1]) || bytes[i + 1] == 0x22 || bytes[i + 1] == 0x5C else { return false }
                    i += 2
                } else {
                    guard Self.isQuotedText(byte) else { return false }
                    i += 1
                }
            }
            return false
        }
        while i < end {
            skipWhitespace()
            guard i < end, bytes[i] == UInt8(ascii: ";") else { return false }
            i += 1
            skipWhitespace()
            guard token() else { return false }
            let afterName = i
            skipWhitespace()
            if i < end, bytes[i] == UInt8(ascii: "=") {
                i += 1
                skipWhitespace()
                guard token() || quotedString() else { return false }
            } else {
                i = afterName
            }
        }
        return true
    }

    /// qdtext: HTAB, SP, visible ASCII but the quote and backslash, and obs-text.
    static func isQuotedText(_ byte: UInt8) -> Bool {
        byte == RequestParser.tab || byte == RequestParser.space || byte == 0x21 || (0x23...0x5B).contains(byte)
            || (0x5D...0x7E).contains(byte) || byte >= 0x80
    }
}

extension RequestParser {
    @inline(__always)
    static func hexDigit(_ byte: UInt8) -> Int? {
        switch byte {
        case 48...57: Int(byte - 48)
        case 65...70: Int(byte - 55)
        case 97...102: Int(byte - 87)
        default: nil
        }
    }
}
