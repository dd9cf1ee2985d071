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
        var capacity = statusLine.count + dateLine.count + serverLine.count + 2
        if let connectionLine { capacity += connectionLine.count }
        let serverLine = self.serverLine
        if let fieldLines = response.encodedFields {
            // Encoded when cached: the head is a few copies; the connection line goes before the
            // blank line that ends the encoded fields.
            capacity += fieldLines.count - 2
            return [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
                var cursor = HeadCursor(base: buffer.baseAddress!)
                cursor.put(statusLine)
                cursor.put(dateLine)
                cursor.put(serverLine)
                cursor.put(fieldLines, dropLast: 2)
                if let connectionLine { cursor.put(connectionLine) }
                cursor.put(13, 10)
                count = cursor.written
            }
        }
        for field in response.headers.fields { capacity += field.name.utf8.count + field.value.utf8.count + 4 }
        if response.contentLength != nil { capacity += Self.contentLengthName.count + 20 + 2 }
        return [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
            var cursor = HeadCursor(base: buffer.baseAddress!)
            cursor.put(statusLine)
            cursor.put(dateLine)
            cursor.put(serverLine)
            for field in response.headers.fields {
                cursor.put(field.name)
                cursor.put(58, 32)
                cursor.put(field.value)
                cursor.put(13, 10)
            }
            if let length = response.contentLength {
                cursor.put(Self.contentLengthName)
                cursor.putDecimal(length)
                cursor.put(13, 10)
            }
            if let connectionLine { cursor.put(connectionLine) }
            cursor.put(13, 10)
            count = cursor.written
        }
    }

    /// `HTTP/1.1 200 OK`, `Date` and `Server`: everything before the encoded fields of a cached
    /// answer on a kept-alive connection, so such a head is two arrays already made. Nil for
    /// other answers, which `encode` writes whole.
    mutating func readyPrefix(for response: PreparedResponse, close: Bool, keepAliveForHTTP10: Bool) -> [UInt8]? {
        guard response.encodedFields != nil, response.status == .ok, !close, !keepAliveForHTTP10 else { return nil }
        let dateLine = currentDateLine()
        if okPrefixSecond != dateSecond || okPrefix.isEmpty {
            okPrefixSecond = dateSecond
            okPrefix = Self.statusLines[200] + dateLine + serverLine
        }
        return okPrefix
    }

    private static let contentLengthName = Array("Content-Length: ".utf8)
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

    /// Copies a string's UTF-8 bytes in one go (a native string is contiguous), not byte by byte.
    @inline(__always)
    static func append(_ text: String, to out: inout [UInt8]) {
        var text = text
        text.withUTF8 { out.append(contentsOf: $0) }
    }

    static func appendDecimal(_ value: Int, to out: inout [UInt8]) {
        if value == 0 { out.append(48); return }
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        var v = value
        withUnsafeMutableBytes(of: &digits) { buffer in
            while v > 0 && count < 20 {
                buffer[count] = UInt8(48 + v % 10)
                v /= 10
                count += 1
            }
            while count > 0 {
                count -= 1
                out.append(buffer[count])
            }
        }
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
