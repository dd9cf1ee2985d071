/// Writes response heads as bytes. One per event loop: it caches the `Date` line for the current
/// second and the status lines, so a head costs appends, not formatting.
struct ResponseHeadEncoder {
    private let serverLine: [UInt8]
    private var dateLine: [UInt8] = []
    private var dateSecond = -1
    private let clock: () -> Int

    static let statusLines: [[UInt8]] = (0..<600).map { Array("HTTP/1.1 \($0) \(HTTPStatus($0).reasonPhrase)\r\n".utf8) }
    static let continueLine: [UInt8] = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

    init(serverName: String, clock: @escaping () -> Int = HTTPDate.nowSeconds) {
        serverLine = Array("Server: \(serverName)\r\n".utf8)
        self.clock = clock
    }

    /// The head of `response`; `close` adds `Connection: close`, `keepAliveForHTTP10` `Connection: keep-alive`.
    mutating func encode(_ response: PreparedResponse, close: Bool, keepAliveForHTTP10: Bool) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        let code = response.status.rawValue
        if code >= 0 && code < 600 {
            out.append(contentsOf: Self.statusLines[code])
        } else {
            out.append(contentsOf: "HTTP/1.1 \(code) \(response.status.reasonPhrase)\r\n".utf8)
        }
        out.append(contentsOf: currentDateLine())
        out.append(contentsOf: serverLine)
        for field in response.headers.fields {
            Self.append(field.name, to: &out)
            out.append(58); out.append(32)
            Self.append(field.value, to: &out)
            out.append(13); out.append(10)
        }
        if let length = response.contentLength {
            out.append(contentsOf: Self.contentLengthName)
            Self.appendDecimal(length, to: &out)
            out.append(13); out.append(10)
        }
        if close {
            out.append(contentsOf: Self.closeLine)
        } else if keepAliveForHTTP10 {
            out.append(contentsOf: Self.keepAliveLine)
        }
        out.append(13); out.append(10)
        return out
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
