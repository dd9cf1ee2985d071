/// The one escaping rule of every JSON text the server writes: answers (`JSONWriter`), log lines
/// (`LogLineBuffer`) and anything else spelled by hand.
///
/// Escaped: `"` and `\`; the control characters U+0000–U+001F (`\n`, `\r`, `\t` by name, the
/// rest as `\u00XX`); and U+2028 and U+2029 (`\u2028`, `\u2029`), which JSON allows raw but
/// JavaScript before ES2019 and some log tools read as line ends. Everything else, `/` included,
/// is copied as UTF-8.
public enum JSONEscaping {
    /// Most bytes one input byte can become (a control byte is `\u00XX`): reserve
    /// `count * maxExpansion` before `escape(_:to:)`.
    public static let maxExpansion = 6

    /// Whether the bytes go into a JSON string as they are: no byte below 0x20, no quote, no
    /// backslash, and no 0xE2 (the lead byte of U+2028 and U+2029, and of other punctuation,
    /// which `escape` then looks at closely). Eight bytes at a time, one branch a word.
    @inlinable @inline(__always)
    public static func isPlain(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let n = bytes.count
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        let spaces = ones &* 0x20, backslashes = ones &* 0x5c, quotes = ones &* 0x22, leads = ones &* 0xe2
        var i = 0
        while i + 8 <= n {
            let w = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
            // Below 0x20: (w - 0x20…) & ~w; equal to c: x = w ^ c…, (x - 1…) & ~x.
            var bad = (w &- spaces) & ~w
            let b = w ^ backslashes, q = w ^ quotes, e = w ^ leads
            bad |= (b &- ones) & ~b
            bad |= (q &- ones) & ~q
            bad |= (e &- ones) & ~e
            if bad & highs != 0 { return false }
            i += 8
        }
        while i < n {
            let b = base[i]
            if b < 0x20 || b == 0x22 || b == 0x5c || b == 0xe2 { return false }
            i += 1
        }
        return true
    }

    /// Writes `bytes` (UTF-8) as the content of a JSON string at `out`, which has room for
    /// `bytes.count * maxExpansion` bytes; returns how many it wrote.
    public static func escape(_ bytes: UnsafeBufferPointer<UInt8>, to out: UnsafeMutablePointer<UInt8>) -> Int {
        let hexDigits: StaticString = "0123456789abcdef"
        let hex = hexDigits.utf8Start
        var at = 0
        @inline(__always) func put(_ byte: UInt8) {
            out[at] = byte
            at += 1
        }
        var i = 0
        let n = bytes.count
        while i < n {
            let b = bytes[i]
            switch b {
            case 0x22: put(0x5c); put(0x22)
            case 0x5c: put(0x5c); put(0x5c)
            case 0x0a: put(0x5c); put(UInt8(ascii: "n"))
            case 0x0d: put(0x5c); put(UInt8(ascii: "r"))
            case 0x09: put(0x5c); put(UInt8(ascii: "t"))
            case 0..<0x20:
                put(0x5c); put(UInt8(ascii: "u")); put(UInt8(ascii: "0")); put(UInt8(ascii: "0"))
                put(hex[Int(b >> 4)]); put(hex[Int(b & 0xf)])
            case 0xe2 where i + 2 < n && bytes[i + 1] == 0x80 && (bytes[i + 2] == 0xa8 || bytes[i + 2] == 0xa9):
                // U+2028 LINE SEPARATOR, U+2029 PARAGRAPH SEPARATOR.
                put(0x5c); put(UInt8(ascii: "u")); put(UInt8(ascii: "2")); put(UInt8(ascii: "0")); put(UInt8(ascii: "2"))
                put(bytes[i + 2] == 0xa8 ? UInt8(ascii: "8") : UInt8(ascii: "9"))
                i += 2
            default: put(b)
            }
            i += 1
        }
        return at
    }

    /// Appends `text` as the content of a JSON string (without quotes) to `out`.
    public static func append(_ text: String, to out: inout [UInt8]) {
        withUTF8(text) { bytes in append(bytes, to: &out) }
    }

    /// Appends UTF-8 `bytes` as the content of a JSON string (without quotes) to `out`.
    public static func append(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        if isPlain(bytes) {
            out.append(contentsOf: bytes)
            return
        }
        let start = out.count
        out.append(contentsOf: repeatElement(0, count: bytes.count * maxExpansion))
        let written = out.withUnsafeMutableBufferPointer { escape(bytes, to: $0.baseAddress! + start) }
        out.removeLast(bytes.count * maxExpansion - written)
    }

    /// The string's UTF-8 bytes, in place when it is native (nearly always), else copied.
    @inline(__always)
    static func withUTF8<Result>(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        if let result = text.utf8.withContiguousStorageIfAvailable(body) { return result }
        var copied = text
        return copied.withUTF8(body)
    }
}

/// A JSON string literal for `s`, quotes included, escaped by the one rule (`JSONEscaping`).
public func jsonString(_ s: String) -> String {
    var out: [UInt8] = [0x22]
    out.reserveCapacity(s.utf8.count + 2)
    JSONEscaping.append(s, to: &out)
    out.append(0x22)
    return String(decoding: out, as: UTF8.self)
}
