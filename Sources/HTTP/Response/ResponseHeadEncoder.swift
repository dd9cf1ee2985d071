/// Writes response heads as bytes. One per event loop: it caches the `Date` line for the current
/// second and the status lines, so a head costs appends, not formatting.
struct ResponseHeadEncoder {
    private let serverLine: [UInt8]
    private var dateLine: [UInt8] = []
    private var dateSecond = -1
    private var okPrefix: [UInt8] = []
    private var okPrefixSecond = -1
    private let clock: () -> Int

    static let statusLines: [[UInt8]] = (0..<600).map { Array("HTTP/1.1 \($0) \(HTTPStatus($0).reasonPhrase)\r\n".utf8) }
    static let continueLine: [UInt8] = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

    init(serverName: String, clock: @escaping () -> Int = HTTPDate.nowSeconds) {
        serverLine = Array("Server: \(serverName)\r\n".utf8)
        self.clock = clock
    }

    /// The head of `response`; `close` adds `Connection: close`, `keepAliveForHTTP10` `Connection: keep-alive`.
    ///
    /// Sized first, then written through a pointer into an array of exactly that capacity: one
    /// allocation and one copy per piece, where appending grew the array and checked its
    /// uniqueness for every field.
    mutating func encode(_ response: PreparedResponse, close: Bool, keepAliveForHTTP10: Bool) -> [UInt8] {
        let code = response.status.rawValue
        let statusLine = code >= 0 && code < 600 ? Self.statusLines[code]
            : Array("HTTP/1.1 \(code) \(response.status.reasonPhrase)\r\n".utf8)
        let dateLine = currentDateLine()
        let connectionLine: [UInt8]? = close ? Self.closeLine : keepAliveForHTTP10 ? Self.keepAliveLine : nil
        // An answer from a cache brings its fields encoded; the connection line goes before the
        // blank line that ends them.
        let encodedFields = response.encodedFields
        var capacity = statusLine.count + dateLine.count + serverLine.count + 2
        if let connectionLine { capacity += connectionLine.count }
        if let encodedFields {
            capacity += encodedFields.count - 2
        } else {
            capacity += Self.fieldsCapacity(response.headers, contentLength: response.contentLength)
        }
        let serverLine = self.serverLine
        return [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
            var cursor = HeadCursor(base: buffer.baseAddress!)
            cursor.put(statusLine)
            cursor.put(dateLine)
            cursor.put(serverLine)
            if let encodedFields {
                cursor.put(encodedFields, dropLast: 2)
            } else {
                cursor.putFields(response.headers, contentLength: response.contentLength)
            }
            if let connectionLine { cursor.put(connectionLine) }
            cursor.put(13, 10)
            count = cursor.written
        }
    }

    /// Header lines as `encode` writes them (`Content-Length` last), then the blank line that
    /// ends a head: what an `EncodedResponse` keeps, so both spell fields the same way.
    static func fieldLines(_ headers: HTTPHeaders, contentLength: Int?) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: fieldsCapacity(headers, contentLength: contentLength) + 2) { buffer, count in
            var cursor = HeadCursor(base: buffer.baseAddress!)
            cursor.putFields(headers, contentLength: contentLength)
            cursor.put(13, 10)
            count = cursor.written
        }
    }

    /// Room enough for `putFields`: every field, and the longest Content-Length line.
    private static func fieldsCapacity(_ headers: HTTPHeaders, contentLength: Int?) -> Int {
        var capacity = 0
        for field in headers { capacity += field.name.utf8.count + field.value.utf8.count + 4 }
        if contentLength != nil { capacity += HeadCursor.contentLengthName.count + 20 + 2 }
        return capacity
    }

    /// `HTTP/1.1 200 OK`, `Date` and `Server` (made once a second): everything before the
    /// encoded fields of a cached answer sent as it is on a kept-alive connection, so such a head
    /// is two arrays already made. Nil for other answers, which `encode` writes whole.
    mutating func readyPrefix(for response: PreparedResponse, close: Bool, keepAliveForHTTP10: Bool) -> [UInt8]? {
        guard response.sentAsEncoded != nil, response.status == .ok, !close, !keepAliveForHTTP10 else { return nil }
        let dateLine = currentDateLine()
        if okPrefixSecond != dateSecond {
            okPrefixSecond = dateSecond
            okPrefix = Self.statusLines[200] + dateLine + serverLine
        }
        return okPrefix
    }

    private static let closeLine = Array("Connection: close\r\n".utf8)
    private static let keepAliveLine = Array("Connection: keep-alive\r\n".utf8)

    private mutating func currentDateLine() -> [UInt8] {
        let now = clock()
        if now != dateSecond {
            dateSecond = now
            dateLine = Array("Date: \(HTTPDate.format(now))\r\n".utf8)
        }
        return dateLine
    }
}

/// Writes a head into memory already sized for it.
private struct HeadCursor {
    let base: UnsafeMutablePointer<UInt8>
    var written = 0

    mutating func put(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { source in
            (base + written).update(from: source.baseAddress!, count: source.count)
        }
        written += bytes.count
    }

    mutating func put(_ bytes: [UInt8], dropLast: Int) {
        bytes.withUnsafeBufferPointer { source in
            (base + written).update(from: source.baseAddress!, count: source.count - dropLast)
        }
        written += bytes.count - dropLast
    }

    mutating func put(_ text: String) {
        // Native and small strings are contiguous; anything else is copied byte by byte.
        let copied: Int? = text.utf8.withContiguousStorageIfAvailable { source in
            if let start = source.baseAddress { (base + written).update(from: start, count: source.count) }
            return source.count
        }
        if let copied {
            written += copied
        } else {
            for byte in text.utf8 { base[written] = byte; written += 1 }
        }
    }

    static let contentLengthName = Array("Content-Length: ".utf8)

    /// `Name: value` lines for every field, then `Content-Length` when there is one.
    mutating func putFields(_ headers: HTTPHeaders, contentLength: Int?) {
        for field in headers {
            put(field.name)
            put(58, 32)
            put(field.value)
            put(13, 10)
        }
        if let contentLength {
            put(Self.contentLengthName)
            putDecimal(contentLength)
            put(13, 10)
        }
    }

    mutating func put(_ a: UInt8, _ b: UInt8) {
        base[written] = a
        base[written + 1] = b
        written += 2
    }

    mutating func putDecimal(_ value: Int) {
        if value == 0 {
            base[written] = 48
            written += 1
            return
        }
        var digits = 0
        var v = value
        while v > 0 { digits += 1; v /= 10 }
        v = value
        for i in stride(from: digits - 1, through: 0, by: -1) {
            base[written + i] = UInt8(48 + v % 10)
            v /= 10
        }
        written += digits
    }
}
