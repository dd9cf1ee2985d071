import POSIX

/// A request-head parser over raw bytes: a pure function of the buffer, so feeding the same
/// request in any number of pieces gives the same answer (picohttpparser's contract).
///
/// Strict where leniency lets requests be smuggled: CRLF line ends only (a bare CR or LF is 400),
/// no obs-fold, no whitespace before the colon, exactly one Host on HTTP/1.1, one valid
/// Content-Length, never Content-Length together with Transfer-Encoding.
enum RequestParser {
    static let cr: UInt8 = 13, lf: UInt8 = 10, space: UInt8 = 32, tab: UInt8 = 9, colon: UInt8 = 58

    /// Parses the head at the start of `bytes` under `limits`. `validHost` is a Host value known
    /// to be valid (the one the connection's last request carried), which is not checked again.
    static func parseHead(_ bytes: UnsafeBufferPointer<UInt8>, limits: HTTPLimits, validHost: String? = nil) -> HeadParseResult {
        var position = 0
        // RFC 9112 §2.2: ignore empty lines before the request line (left over after a body).
        while position + 1 < bytes.count, bytes[position] == cr, bytes[position + 1] == lf { position += 2 }
        if position < bytes.count, bytes[position] == lf { return .invalid(.bad("A line ended in LF without CR.")) }

        let lineStart = position
        // Bytes that cannot begin a request (a TLS ClientHello, a stray binary protocol) are
        // refused as soon as they are seen, not after the head timeout.
        if let error = refusedStart(bytes, from: lineStart) { return .invalid(error) }
        let requestLine: Range<Int>
        switch findLineEnd(bytes, from: lineStart, limit: limits.maxRequestLineBytes) {
        case .needMore: return .needMore
        case .tooLong: return .invalid(RequestError(.uriTooLong, "The request line is longer than \(limits.maxRequestLineBytes) bytes."))
        case .invalid(let error): return .invalid(error)
        case .line(let range): requestLine = range; position = range.upperBound + 2
        }

        let method: HTTPMethod, target: RequestTarget, version: HTTPVersion
        switch parseRequestLine(bytes, requestLine) {
        case .failure(let error): return .invalid(error)
        case .success(let parts): (method, target, version) = parts
        }

        var framing = Framing(knownHost: validHost)
        var noted = NotedFields()
        var connection = ConnectionTokens()
        var headers = HTTPHeaders()
        // Browsers send about a dozen fields: one allocation instead of regrowing four times.
        headers.reserveCapacity(16)
        let headerStart = position
        var keepsLines = false
        while true {
            let used = position - headerStart
            switch findLineEnd(bytes, from: position, limit: limits.maxHeaderBytes - used) {
            case .needMore: return .needMore
            case .tooLong:
                return .invalid(RequestError(.requestHeaderFieldsTooLarge, "The header section is larger than \(limits.maxHeaderBytes) bytes."))
            case .invalid(let error): return .invalid(error)
            case .line(let range):
                position = range.upperBound + 2
                if range.isEmpty {
                    if keepsLines { headers.keep(lines: Array(UnsafeBufferPointer(rebasing: bytes[headerStart..<range.lowerBound]))) }
                    return finish(method: method, target: target, version: version, headers: headers, noted: noted, framing: framing,
                                  connection: connection, validHost: validHost, consumed: position)
                }
                if headers.count >= limits.maxHeaderCount {
                    return .invalid(RequestError(.requestHeaderFieldsTooLarge, "The request has more than \(limits.maxHeaderCount) header fields."))
                }
                switch parseField(bytes, range) {
                case .failure(let error): return .invalid(error)
                case .success(let (field, value)):
                    noted.formUnion(field.noted)
                    // Read here, over the bytes, rather than spelled out and split for every request.
                    if field.noted.contains(.connection) { connection.note(UnsafeBufferPointer(rebasing: bytes[value])) }
                    // The framing fields are spelled out to be checked; the rest stay bytes until read.
                    if field.role != .other {
                        headers.add(field.name, framing.note(field.role, bytes, value))
                    } else {
                        headers.add(field.name, valueAt: value.lowerBound - headerStart, count: value.count)
                        keepsLines = true
                    }
                }
            }
        }
    }

    /// `GET ` as the word the machine loads from those four bytes.
    @inline(__always)
    private static var getSpace: UInt32 { UInt32(littleEndian: 0x2054_4547) }

    /// The longest method accepted; a longer run of token bytes is no method of HTTP's.
    static let maxMethodBytes = 20

    /// Why the bytes from `start` cannot be the start of a request line, or nil while they may
    /// be: the method must be token bytes followed by a space, and the target must begin with
    /// `/`, `*` or a letter (absolute-form). CR and LF are left to the line rules. Checked
    /// before anything else, so a request is refused the same way however it is split.
    static func refusedStart(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> RequestError? {
        guard let base = bytes.baseAddress else { return nil }
        let end = bytes.count
        // Nearly every request starts `GET /`: settled by one comparison.
        if end - start >= 5 && UnsafeRawPointer(base + start).loadUnaligned(as: UInt32.self) == getSpace
            && base[start + 4] == UInt8(ascii: "/") { return nil }
        var index = start
        while index < end && index - start <= maxMethodBytes {
            let byte = base[index]
            if byte == cr || byte == lf { return nil }
            if byte == space {
                guard index > start else { break }
                guard index + 1 < end else { return nil }
                let first = base[index + 1]
                if first == UInt8(ascii: "/") || first == UInt8(ascii: "*") || first == cr || first == lf { return nil }
                if (first | 0x20) >= UInt8(ascii: "a") && (first | 0x20) <= UInt8(ascii: "z") { return nil }
                return .bad("The request target must be a path starting with /.")
            }
            guard isTokenByte(byte) else { break }
            index += 1
        }
        guard index < end else { return nil }
        return .bad("This is not an HTTP/1.1 request: it must start with a method such as GET (TLS needs another port).")
    }

    enum LineEnd {
        case line(Range<Int>)
        case needMore
        case tooLong
        case invalid(RequestError)
    }

    /// Finds the CRLF ending the line at `start`; the line may hold at most `limit` bytes.
    ///
    /// The first CR or LF ends the line: a CR must be followed by LF, and an LF must follow a CR.
    /// Both searches are memchr's, which look at many bytes per step; a loop over single bytes
    /// was a fifth of the cost of parsing a head.
    static func findLineEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, limit: Int) -> LineEnd {
        let end = bytes.count
        guard start < end, let base = bytes.baseAddress else { return .needMore }
        let lineFeed = find(lf, base, from: start, to: end)
        // A CR can only matter before the first LF (or anywhere, when there is none yet).
        let carriageReturn = find(cr, base, from: start, to: lineFeed ?? end)
        guard let stop = carriageReturn ?? lineFeed else { return end - start > limit ? .tooLong : .needMore }
        if stop - start > limit { return .tooLong }
        guard let carriageReturn else { return .invalid(.bad("A line ended in LF without CR.")) }
        guard carriageReturn + 1 < end else { return .needMore }
        guard lineFeed == carriageReturn + 1 else { return .invalid(.bad("A bare CR appeared inside a line.")) }
        return .line(start..<carriageReturn)
    }

    static func parseRequestLine(_ bytes: UnsafeBufferPointer<UInt8>, _ line: Range<Int>) -> Result<(HTTPMethod, RequestTarget, HTTPVersion), RequestError> {
        let malformed: RequestError = .bad("The request line must be METHOD SP TARGET SP HTTP/1.1.")
        guard let base = bytes.baseAddress else { return .failure(malformed) }
        var index = line.lowerBound
        while index < line.upperBound, isTokenByte(base[index]) { index += 1 }
        guard index > line.lowerBound, index < line.upperBound, base[index] == space else { return .failure(malformed) }
        let methodRange = line.lowerBound..<index
        index += 1
        // The target runs to the next space and may hold visible ASCII only. memchr finds the
        // space and the `?` many bytes per step, and the bytes are checked eight at a time.
        let targetStart = index
        let targetEnd = find(space, base, from: targetStart, to: line.upperBound) ?? line.upperBound
        guard targetEnd > targetStart, targetEnd < line.upperBound, isVisibleASCII(base + targetStart, count: targetEnd - targetStart) else {
            return .failure(.bad("The request target is missing or holds characters that must be percent-encoded."))
        }
        let targetRange = targetStart..<targetEnd
        let version: HTTPVersion
        switch parseVersion(bytes, (targetEnd + 1)..<line.upperBound) {
        case .failure(let error): return .failure(error)
        case .success(let v): version = v
        }
        // GET is nearly every request: known without decoding or hashing the token.
        let isGET = methodRange.count == 3 && base[methodRange.lowerBound] == UInt8(ascii: "G")
            && base[methodRange.lowerBound + 1] == UInt8(ascii: "E") && base[methodRange.lowerBound + 2] == UInt8(ascii: "T")
        let method = isGET ? HTTPMethod.GET : HTTPMethod(string(bytes, methodRange))
        guard isGET || HTTPMethod.known.contains(method) else {
            return .failure(RequestError(.notImplemented, "The method \(method) is not implemented by this server."))
        }
        // origin-form, nearly every request: cut at the `?` straight from the bytes.
        if base[targetStart] == UInt8(ascii: "/") {
            let questionMark = find(UInt8(ascii: "?"), base, from: targetStart, to: targetEnd)
            let pathEnd = questionMark ?? targetEnd
            let escaped = find(UInt8(ascii: "%"), base, from: targetStart, to: pathEnd) != nil
            let query = questionMark.map { string(bytes, ($0 + 1)..<targetEnd) }
            return .success((method, RequestTarget(path: string(bytes, targetStart..<pathEnd), query: query, pathHasEscapes: escaped), version))
        }
        let text = string(bytes, targetRange)
        if text == "*" && method == .OPTIONS {
            // asterisk-form: allowed only for OPTIONS.
            return .success((method, RequestTarget(path: text, query: nil), version))
        }
        guard let origin = originForm(ofAbsolute: text) else {
            return .failure(.bad("The request target must be a path starting with /."))
        }
        return .success((method, RequestTarget(origin), version))
    }

    /// The offset of the first `byte` in `base[from..<to]`, or nil.
    @inline(__always)
    static func find(_ byte: UInt8, _ base: UnsafePointer<UInt8>, from: Int, to: Int) -> Int? {
        guard to > from, let found = Memory.first(byte, in: base + from, count: to - from) else { return nil }
        return found - UnsafeRawPointer(base)
    }

    /// Whether all `count` bytes at `bytes` are visible ASCII (0x21 through 0x7E).
    static func isVisibleASCII(_ bytes: UnsafePointer<UInt8>, count: Int) -> Bool {
        // A word has a byte below 0x21 when (w - 0x21…) & ~w & 0x80… is not zero, and one above
        // 0x7E when ((w + 0x01…) | w) & 0x80… is not zero: exact tests.
        allBytes(bytes, count: count,
                 wordPasses: { word in (word &- ones &* 0x21) & ~word & highs == 0 && ((word &+ ones) | word) & highs == 0 },
                 bytePasses: { $0 > space && $0 < 127 })
    }

    private static let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080

    /// Whether every byte passes `bytePasses`, looked at eight at a time while whole words pass
    /// `wordPasses` (which must pass only words whose every byte passes), then one by one from
    /// the first word that does not.
    @inline(__always)
    private static func allBytes(_ bytes: UnsafePointer<UInt8>, count: Int, wordPasses: (UInt64) -> Bool,
                                 bytePasses: (UInt8) -> Bool) -> Bool {
        var i = 0
        while i + 8 <= count, wordPasses(UnsafeRawPointer(bytes + i).loadUnaligned(as: UInt64.self)) { i += 8 }
        while i < count {
            if !bytePasses(bytes[i]) { return false }
            i += 1
        }
        return true
    }

    static func parseVersion(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Result<HTTPVersion, RequestError> {
        // Every request passes here: no array for the prefix, no error built unless it is needed.
        var invalid: RequestError { .bad("The protocol version must be HTTP/1.1 or HTTP/1.0.") }
        let prefix = versionPrefix
        guard range.count >= prefix.count + 1 else { return .failure(invalid) }
        for offset in 0..<prefix.count where bytes[range.lowerBound + offset] != prefix[offset] { return .failure(invalid) }
        let rest = (range.lowerBound + prefix.count)..<range.upperBound
        guard let major = digit(bytes[rest.lowerBound]) else { return .failure(invalid) }
        if major != 1 {
            return .failure(RequestError(.httpVersionNotSupported, "Only HTTP/1.1 and HTTP/1.0 are supported."))
        }
        guard rest.count == 3, bytes[rest.lowerBound + 1] == UInt8(ascii: "."), let minor = digit(bytes[rest.lowerBound + 2]) else {
            return .failure(invalid)
        }
        return .success(HTTPVersion(major: 1, minor: minor))
    }

    /// The field on `line`: its name, what the parser notes for it, and where its value is in
    /// `bytes` (whitespace trimmed).
    static func parseField(_ bytes: UnsafeBufferPointer<UInt8>, _ line: Range<Int>) -> Result<(FieldName, Range<Int>), RequestError> {
        let first = bytes[line.lowerBound]
        if first == space || first == tab { return .failure(.bad("Folded header lines (obs-fold) are not accepted.")) }
        let field: FieldName, colonAt: Int
        // A name spelled as browsers and tools spell it is a token already: found at the colon
        // and compared whole, rather than checked byte by byte.
        if let colon = find(colon, bytes.baseAddress!, from: line.lowerBound, to: line.upperBound),
           let known = knownName(bytes, line.lowerBound..<colon) {
            field = known
            colonAt = colon
        } else {
            var index = line.lowerBound
            while index < line.upperBound, isTokenByte(bytes[index]) { index += 1 }
            guard index < line.upperBound, index > line.lowerBound else { return .failure(.bad("A header line has no name or no colon.")) }
            guard bytes[index] == colon else {
                if bytes[index] == space || bytes[index] == tab {
                    return .failure(.bad("Whitespace between a header name and its colon is not allowed."))
                }
                return .failure(.bad("A header name holds a character that is not allowed."))
            }
            let name = string(bytes, line.lowerBound..<index)
            field = FieldName(name: name, noted: NotedFields.of(name), role: FieldRole.of(name))
            colonAt = index
        }
        var valueStart = colonAt + 1
        var valueEnd = line.upperBound
        while valueStart < valueEnd, bytes[valueStart] == space || bytes[valueStart] == tab { valueStart += 1 }
        while valueEnd > valueStart, bytes[valueEnd - 1] == space || bytes[valueEnd - 1] == tab { valueEnd -= 1 }
        if !isFieldText(bytes.baseAddress! + valueStart, count: valueEnd - valueStart) {
            return .failure(.bad("The value of \(field.name) holds a control character."))
        }
        return .success((field, valueStart..<valueEnd))
    }

    /// Whether the `count` bytes at `bytes` may be a field value: no control character but tab,
    /// no DEL. Eight bytes at a time while none is below 0x20 or equal to 0x7F.
    static func isFieldText(_ bytes: UnsafePointer<UInt8>, count: Int) -> Bool {
        // Exact tests: a byte below 0x20, a byte equal to 0x7F. A tab is below 0x20 too, so a
        // word with one is looked at byte by byte.
        allBytes(bytes, count: count,
                 wordPasses: { word in
                     let deleted = word ^ (ones &* 0x7F)
                     return (word &- ones &* 0x20) & ~word & highs == 0 && (deleted &- ones) & ~deleted & highs == 0
                 },
                 bytePasses: { ($0 >= space || $0 == tab) && $0 != 127 })
    }

    /// The fields the framing rules read, noted as the fields are parsed (`FieldRole` says
    /// which a field is).
    struct Framing {
        /// The Host value the connection's last request carried, if any.
        let knownHost: String?
        var hosts = 0
        /// The first Host value.
        var host: String?
        var lengths: [String] = []
        var encodings: [String] = []
        var expectations: [String] = []

        /// Notes a field of one of the four, and returns its value spelled out.
        mutating func note(_ role: FieldRole, _ bytes: UnsafeBufferPointer<UInt8>, _ value: Range<Int>) -> String {
            // A connection's requests nearly always name the host its last one named: that
            // string is taken again rather than spelled out anew.
            let known = role == .host ? knownHost.flatMap { spells($0, bytes, value) ? $0 : nil } : nil
            let text = known ?? string(bytes, value)
            switch role {
            case .host:
                hosts += 1
                if host == nil { host = text }
            case .expect: expectations.append(text)
            case .contentLength: lengths.append(text)
            case .transferEncoding: encodings.append(text)
            case .other: break
            }
            return text
        }
    }

    /// The `close` and `keep-alive` tokens of every Connection field.
    struct ConnectionTokens {
        var close = false
        var keepAlive = false

        mutating func note(_ value: UnsafeBufferPointer<UInt8>) {
            HTTPRequest.connectionTokens(value, close: &close, keepAlive: &keepAlive)
        }
    }

    /// A field's part in the framing rules.
    enum FieldRole {
        case other, host, expect, contentLength, transferEncoding

        /// The part of the field `name` (in any case). Of the same length as one of the four, most
        /// names differ in the first letter (Accept and Expect, the Sec-Fetch names and
        /// Content-Length): settled without a call.
        static func of(_ name: String) -> FieldRole {
            guard let first = name.utf8.first else { return .other }
            let letter = first | 0x20
            guard letter == UInt8(ascii: "h") || letter == UInt8(ascii: "e") || letter == UInt8(ascii: "c") || letter == UInt8(ascii: "t") else { return .other }
            switch name.utf8.count {
            case 4: return name.caseInsensitiveEquals("Host") ? .host : .other
            case 6: return name.caseInsensitiveEquals("Expect") ? .expect : .other
            case 14: return name.caseInsensitiveEquals("Content-Length") ? .contentLength : .other
            case 17: return name.caseInsensitiveEquals("Transfer-Encoding") ? .transferEncoding : .other
            default: return .other
            }
        }
    }

    /// Whether the bytes of `range` are exactly `text`'s.
    @inline(__always)
    static func spells(_ text: String, _ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { spelled in
            spelled.count == range.count && (range.isEmpty || Memory.equal(spelled.baseAddress!, bytes.baseAddress! + range.lowerBound, count: range.count))
        } ?? (String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self) == text)
    }

    /// Framing rules that need the whole head: Host, Content-Length, Transfer-Encoding, Expect.
    static func finish(method: HTTPMethod, target: consuming RequestTarget, version: HTTPVersion, headers: consuming HTTPHeaders,
                       noted: NotedFields, framing: borrowing Framing, connection: ConnectionTokens, validHost: String?,
                       consumed: Int) -> HeadParseResult {
        let hosts = framing.hosts, lengths = framing.lengths, encodings = framing.encodings, expectations = framing.expectations
        if version.minor >= 1 {
            if hosts == 0 { return .invalid(.bad("An HTTP/1.1 request must carry a Host header.")) }
            if hosts > 1 { return .invalid(.bad("The request carries more than one Host header.")) }
        }
        // A connection's requests nearly always name the same host: checked once, then compared.
        if let host = framing.host, host != validHost, !isValidHost(host) {
            return .invalid(.bad(host.isEmpty ? "The Host header is empty." : "The Host header is not a host name or address with an optional port."))
        }
        if !lengths.isEmpty && !encodings.isEmpty {
            return .invalid(.bad("Content-Length and Transfer-Encoding must not both be sent."))
        }
        if lengths.count > 1 { return .invalid(.bad("The request carries more than one Content-Length.")) }
        var contentLength: Int?
        if let text = lengths.first {
            guard !text.isEmpty, text.utf8.count <= 18, text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), let value = Int(text) else {
                return .invalid(.bad("Content-Length must be a decimal number of bytes."))
            }
            contentLength = value
        }
        var chunked = false
        if !encodings.isEmpty {
            if version.minor == 0 { return .invalid(.bad("Transfer-Encoding is not allowed in an HTTP/1.0 request.")) }
            let codings = encodings.flatMap { $0.split(separator: ",") }.map { $0.trimmingWhitespace().lowercased() }
            guard codings.last == "chunked" else { return .invalid(.bad("A request's Transfer-Encoding must end in chunked.")) }
            guard codings.count == 1 else {
                return .invalid(RequestError(.notImplemented, "Only the chunked transfer coding is implemented."))
            }
            chunked = true
        }
        var expectsContinue = false
        for expectation in expectations {
            if expectation.trimmingWhitespace().lowercased() == "100-continue" { expectsContinue = true } else {
                return .invalid(RequestError(.expectationFailed, "Only Expect: 100-continue is supported."))
            }
        }
        let head = RequestHead(method: method, requestTarget: target, version: version, headers: headers, noted: noted, host: framing.host,
                               contentLength: contentLength, chunked: chunked, expectsContinue: expectsContinue,
                               wantsClose: connection.close || (version.minor == 0 && !connection.keepAlive))
        return .complete(head, consumed: consumed)
    }

    /// Whether `value` is `uri-host [ ":" port ]` (RFC 9110 §7.2, RFC 3986 §3.2.2): a name of
    /// unreserved, sub-delim and percent-encoded bytes, or an address in brackets; never empty.
    static func isValidHost(_ value: String) -> Bool {
        if let valid = value.utf8.withContiguousStorageIfAvailable({ isValidHost(bytes: $0) }) { return valid }
        var native = value
        native.makeContiguousUTF8()
        return isValidHost(native)
    }

    static func isValidHost(bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return false }
        let count = bytes.count
        var index = 0
        if base[0] == UInt8(ascii: "[") {
            // IP-literal: hex digits, colons and dots (IPv6, IPv4-mapped), or an IPvFuture.
            index = 1
            while index < count, base[index] != UInt8(ascii: "]") {
                guard isHostByte(base[index]) || base[index] == colon else { return false }
                index += 1
            }
            guard index < count, index > 1 else { return false }
            index += 1
        } else {
            while index < count, isHostByte(base[index]) { index += 1 }
            guard index > 0 else { return false }
        }
        guard index < count else { return true }
        guard base[index] == colon, count - index - 1 <= 5 else { return false }
        index += 1
        while index < count {
            guard base[index] >= 48 && base[index] <= 57 else { return false }
            index += 1
        }
        return true
    }

    /// unreserved / sub-delims / `%` (RFC 3986): letters, digits, `-._~!$&'()*+,;=%`. A bitmap
    /// in two constant words, like `isTokenByte`.
    @inline(__always)
    static func isHostByte(_ byte: UInt8) -> Bool {
        let word: UInt64 = byte < 64 ? 0x2BFF_7FF2_0000_0000 : byte < 128 ? 0x47FF_FFFE_87FF_FFFE : 0
        return word >> UInt64(byte & 63) & 1 != 0
    }

    /// `http://host/path?q` → `/path?q`; nil when `target` is not an absolute http(s) URI.
    static func originForm(ofAbsolute target: String) -> String? {
        let lower = target.lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://") else { return nil }
        let afterScheme = target[target.index(target.firstIndex(of: ":")!, offsetBy: 3)...]
        guard let slash = afterScheme.firstIndex(where: { $0 == "/" || $0 == "?" }) else { return "/" }
        let rest = afterScheme[slash...]
        return rest.first == "?" ? "/" + rest : String(rest)
    }

    @inline(__always)
    static func string(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    static let versionPrefix: [UInt8] = Array("HTTP/".utf8)

    /// The header names browsers and tools send, spelled as they send them: the names
    /// `knownName` recognises, listed so that a test can check it knows each one.
    static let commonNames: [String] = [
        "Host", "User-Agent", "Accept", "Accept-Encoding", "Accept-Language", "Connection", "Cache-Control",
        "If-None-Match", "If-Modified-Since", "Range", "If-Range", "Referer", "Cookie", "Origin", "Pragma",
        "Content-Type", "Content-Length", "Transfer-Encoding", "Expect", "Authorization", "Upgrade-Insecure-Requests",
        "Sec-Fetch-Site", "Sec-Fetch-Mode", "Sec-Fetch-Dest", "Sec-Fetch-User", "Priority", "DNT", "sec-ch-ua",
        "sec-ch-ua-mobile", "sec-ch-ua-platform", "X-Forwarded-For", "Last-Event-ID",
    ]

    /// The entry of `commonNames` that the bytes of `range` spell exactly, with what the parser
    /// notes for it, or nil. A switch over the length, then comparisons with constant bytes: no
    /// table is read, so nothing is retained (a shared table's reference count is memory both
    /// event loops would write per field).
    static func knownName(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> FieldName? {
        let start = bytes.baseAddress! + range.lowerBound
        @inline(__always) func spells(_ name: StaticString) -> Bool { Memory.equal(start, name.utf8Start, count: name.utf8CodeUnitCount) }
        switch range.count {
        case 3:
            if spells("DNT") { return FieldName(name: "DNT") }
        case 4:
            if spells("Host") { return FieldName(name: "Host", role: .host) }
        case 5:
            if spells("Range") { return FieldName(name: "Range", noted: .range) }
        case 6:
            if spells("Accept") { return FieldName(name: "Accept") }
            if spells("Cookie") { return FieldName(name: "Cookie", noted: .cookie) }
            if spells("Origin") { return FieldName(name: "Origin") }
            if spells("Pragma") { return FieldName(name: "Pragma") }
            if spells("Expect") { return FieldName(name: "Expect", role: .expect) }
        case 7:
            if spells("Referer") { return FieldName(name: "Referer") }
        case 8:
            if spells("If-Range") { return FieldName(name: "If-Range", noted: .ifRange) }
            if spells("Priority") { return FieldName(name: "Priority") }
        case 9:
            if spells("sec-ch-ua") { return FieldName(name: "sec-ch-ua") }
        case 10:
            if spells("User-Agent") { return FieldName(name: "User-Agent") }
            if spells("Connection") { return FieldName(name: "Connection", noted: .connection) }
        case 12:
            if spells("Content-Type") { return FieldName(name: "Content-Type") }
        case 13:
            if spells("Cache-Control") { return FieldName(name: "Cache-Control") }
            if spells("If-None-Match") { return FieldName(name: "If-None-Match", noted: .ifNoneMatch) }
            if spells("Authorization") { return FieldName(name: "Authorization", noted: .authorization) }
            if spells("Last-Event-ID") { return FieldName(name: "Last-Event-ID") }
        case 14:
            if spells("Content-Length") { return FieldName(name: "Content-Length", role: .contentLength) }
            if spells("Sec-Fetch-Site") { return FieldName(name: "Sec-Fetch-Site") }
            if spells("Sec-Fetch-Mode") { return FieldName(name: "Sec-Fetch-Mode") }
            if spells("Sec-Fetch-Dest") { return FieldName(name: "Sec-Fetch-Dest") }
            if spells("Sec-Fetch-User") { return FieldName(name: "Sec-Fetch-User") }
        case 15:
            if spells("Accept-Encoding") { return FieldName(name: "Accept-Encoding", noted: .acceptEncoding) }
            if spells("Accept-Language") { return FieldName(name: "Accept-Language") }
            if spells("X-Forwarded-For") { return FieldName(name: "X-Forwarded-For") }
        case 16:
            if spells("sec-ch-ua-mobile") { return FieldName(name: "sec-ch-ua-mobile") }
        case 17:
            if spells("If-Modified-Since") { return FieldName(name: "If-Modified-Since", noted: .ifModifiedSince) }
            if spells("Transfer-Encoding") { return FieldName(name: "Transfer-Encoding", role: .transferEncoding) }
        case 18:
            if spells("sec-ch-ua-platform") { return FieldName(name: "sec-ch-ua-platform") }
        case 25:
            if spells("Upgrade-Insecure-Requests") { return FieldName(name: "Upgrade-Insecure-Requests") }
        default: break
        }
        return nil
    }

    /// A field's name with what the parser notes for it: its noted flag and its part in the
    /// framing (for a name `knownName` recognises, the name is the constant).
    struct FieldName {
        let name: String
        var noted: NotedFields = []
        var role: FieldRole = .other
    }

    @inline(__always)
    static func digit(_ byte: UInt8) -> Int? { byte >= 48 && byte <= 57 ? Int(byte - 48) : nil }

    /// RFC 9110 tchar: the characters of method names and header names. A bitmap in two
    /// constant words (bytes 0–63 and 64–127; none above is a tchar): no table to load.
    @inline(__always)
    static func isTokenByte(_ byte: UInt8) -> Bool {
        let word: UInt64 = byte < 64 ? 0x03FF_6CFA_0000_0000 : byte < 128 ? 0x57FF_FFFF_C7FF_FFFE : 0
        return word >> UInt64(byte & 63) & 1 != 0
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs.
    func trimmingWhitespace() -> String {
        var scalars = Substring(self)
        while let first = scalars.first, first == " " || first == "\t" { scalars = scalars.dropFirst() }
        while let last = scalars.last, last == " " || last == "\t" { scalars = scalars.dropLast() }
        return String(scalars)
    }
}
