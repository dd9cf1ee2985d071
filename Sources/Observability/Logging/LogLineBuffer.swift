import POSIX

/// Log lines built as bytes, in either format, and written to a descriptor in batches.
///
/// One buffer belongs to one thread (an event loop's access log); it takes no lock, so loops
/// never wait for each other to log. `StreamLogSink` uses the same code for the lines it writes
/// one at a time, so a batched line and an immediate one are spelled alike.
///
/// Text lines cannot be forged: control characters, backslashes, C1 controls, line and
/// paragraph separators and bidirectional overrides in a message or value are written as
/// escapes (`\n`, `\x1b`, `\u{202e}`), so a `%0a` in a path never starts a new line. A value
/// holding a space or a quote is quoted, with its quotes escaped. Nothing in the message part
/// can pass for a field: a message holding `=` or a quote is written quoted, and a value inside
/// it (an access line's path) is quoted when it holds a space, `=` or a quote, so
/// `GET /x%20remote=6.6.6.6` is logged as `GET "/x remote=6.6.6.6" 404 …`. JSON lines escape by the
/// one rule of `JSONEscaping`.
public final class LogLineBuffer {
    public let format: LogFormat
    /// Where `flush` writes; nil for a buffer that only builds lines in memory.
    private let fd: Int32?
    private var storage: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// Bytes waiting in `storage`.
    public private(set) var count = 0
    private var timestamp = LogTimestamp()
    /// A batch this large is written at once rather than waiting for the next flush.
    private let flushThreshold: Int
    /// A regular file takes a whole batch in one write without splitting a line written
    /// concurrently by another thread; a pipe or socket only guarantees that up to PIPE_BUF.
    private let wholeWrites: Bool

    /// Lines for `fileDescriptor` (nil: in memory only); a batch is written once it holds
    /// `flushThreshold` bytes, and by `flush()`.
    public init(format: LogFormat, fileDescriptor: Int32?, flushThreshold: Int = 8 * 1024) {
        self.format = format
        self.fd = fileDescriptor
        self.flushThreshold = flushThreshold
        self.capacity = max(4096, flushThreshold + 16 * 1024)
        self.storage = .allocate(capacity: capacity)
        if let fd = fileDescriptor, let info = try? FileDescriptor(rawValue: fd).status() {
            wholeWrites = info.isRegularFile
        } else {
            wholeWrites = false
        }
    }

    deinit { storage.deallocate() }

    /// Whether nothing waits to be written.
    public var isEmpty: Bool { count == 0 }

    /// The bytes written so far and not flushed, as text (for lines built in memory).
    public var text: String { String(decoding: UnsafeBufferPointer(start: storage, count: count), as: UTF8.self) }

    // MARK: Building a line

    /// Starts a line: the time, level and label, and the opening of the message.
    public func begin(level: LogLevel, label: String, seconds: Int, milliseconds: Int) {
        if level != prefixLevel || label != prefixLabel { spellPrefix(level: level, label: label) }
        reserve(prefixAfterTime.count + 40)
        switch format {
        case .text:
            timestamp.write(seconds: seconds, milliseconds: milliseconds, to: storage + count)
            count += 24
        case .json:
            raw("{\"time\":\"")
            timestamp.write(seconds: seconds, milliseconds: milliseconds, to: storage + count)
            count += 24
        }
        prefixAfterTime.withUnsafeBufferPointer { copy($0) }
    }

    /// What follows the time up to the message, for the last level and label (a loop's lines
    /// all share one): spelled once, copied per line.
    private var prefixAfterTime: [UInt8] = []
    private var prefixLevel: LogLevel?
    private var prefixLabel = ""

    private func spellPrefix(level: LogLevel, label: String) {
        let start = count
        switch format {
        case .text:
            raw(" ")
            rawString(level.description)
            for _ in level.description.utf8.count..<7 { raw(" ") }
            raw(" ")
            escaped(label, quoting: false)
            raw(": ")
        case .json:
            raw("\",\"level\":\"")
            rawString(level.description)
            raw("\",\"logger\":")
            jsonQuoted(label)
            raw(",\"message\":\"")
        }
        prefixAfterTime = Array(UnsafeBufferPointer(start: storage + start, count: count - start))
        count = start
        prefixLevel = level
        prefixLabel = label
    }

    /// Part of the message, as prose: spaces are kept, and the part is quoted when it holds `=`
    /// or a quote, so no field can be planted in it.
    public func message(_ part: String) {
        switch format {
        case .text: escapedMessage(part, spacesQuote: false)
        case .json: jsonEscaped(part)
        }
    }

    /// A value inside the message (a path, a name): quoted when it holds a space, `=` or a quote.
    public func messageValue(_ part: String) {
        switch format {
        case .text: escapedMessage(part, spacesQuote: true)
        case .json: jsonEscaped(part)
        }
    }

    /// A number as part of the message.
    public func message(_ number: Int) { decimal(number) }

    /// One space of the message.
    public func messageSpace() {
        reserve(1)
        byte(0x20)
    }

    /// Ends the message; fields follow.
    public func endMessage() {
        if format == .json { raw("\"") }
    }

    /// A `key=value` field (text) or `"key":"value"` member (JSON). `key` is plain ASCII.
    public func field(_ key: StaticString, _ value: String) {
        fieldKey(key)
        switch format {
        case .text: escaped(value, quoting: true)
        case .json: jsonQuoted(value)
        }
    }

    /// A numeric field, written as the same string `String(value)` gives.
    public func field(_ key: StaticString, _ value: Int) {
        fieldKey(key)
        if format == .json { raw("\"") }
        decimal(value)
        if format == .json { raw("\"") }
    }

    /// A field whose key is not known in advance.
    public func field(name: String, _ value: String) {
        switch format {
        case .text:
            raw(" ")
            escaped(name, quoting: false)
            raw("=")
            escaped(value, quoting: true)
        case .json:
            raw(",")
            jsonQuoted(name)
            raw(":")
            jsonQuoted(value)
        }
    }

    /// Ends the line; writes the batch when it has grown past the threshold.
    public func end() {
        if format == .json { raw("}") }
        raw("\n")
        if count >= flushThreshold && fd != nil { flush() }
    }

    /// One access-log line: `GET /path 200 method=GET path=/path status=200 bytes=… ms=… remote=…`
    /// at level info, byte for byte what the general calls write.
    ///
    /// Every answered request writes one, so the common case (text, and values that need no
    /// escaping or quoting) is written in one pass through a local pointer after one `reserve`;
    /// anything else goes through the general calls.
    public func accessLine(label: String, seconds: Int, milliseconds: Int, method: String, path: String,
                           status: Int, bytes: Int, elapsed: Int, remote: String) {
        if format == .text && 100...999 ~= status && bytes >= 0 && elapsed >= 0 {
            if .info != prefixLevel || label != prefixLabel { spellPrefix(level: .info, label: label) }
            let written = withBytes(method) { m in
                withBytes(path) { p in
                    withBytes(remote) { r in
                        plainAccessLine(seconds: seconds, milliseconds: milliseconds, method: m, path: p,
                                        status: status, bytes: bytes, elapsed: elapsed, remote: r)
                    }
                }
            }
            if written {
                if count >= flushThreshold && fd != nil { flush() }
                return
            }
        }
        begin(level: .info, label: label, seconds: seconds, milliseconds: milliseconds)
        messageValue(method)
        messageSpace()
        messageValue(path)
        messageSpace()
        message(status)
        endMessage()
        field("method", method)
        field("path", path)
        field("status", status)
        field("bytes", bytes)
        field("ms", elapsed)
        field("remote", remote)
        end()
    }

    /// The text access line when method, path and remote are plain (printable ASCII, no space,
    /// quote or backslash): nothing to escape or quote, so each is copied as it is. False, with
    /// nothing written, otherwise.
    @inline(__always)
    private func plainAccessLine(seconds: Int, milliseconds: Int, method m: UnsafeBufferPointer<UInt8>,
                                 path p: UnsafeBufferPointer<UInt8>, status: Int, bytes: Int, elapsed: Int,
                                 remote r: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let mb = m.baseAddress, let pb = p.baseAddress, let rb = r.baseAddress,
              Self.isPlain(mb, m.count, low: 0x21, checkQuote: true, allowHigh: false, checkEquals: true),
              Self.isPlain(pb, p.count, low: 0x21, checkQuote: true, allowHigh: false, checkEquals: true),
              Self.isPlain(rb, r.count, low: 0x21, checkQuote: true, allowHigh: false) else { return false }
        // The time, the prefix, the values twice, three statuses' worth of digits and the keys.
        reserve(24 + prefixAfterTime.count + 2 * (m.count + p.count) + r.count + 2 * 20 + 3 * 3 + 64)
        var out = storage + count
        timestamp.write(seconds: seconds, milliseconds: milliseconds, to: out)
        out += 24
        prefixAfterTime.withUnsafeBufferPointer { prefix in
            out.update(from: prefix.baseAddress!, count: prefix.count)
            out += prefix.count
        }
        @inline(__always) func put(_ base: UnsafePointer<UInt8>, _ n: Int) {
            out.update(from: base, count: n)
            out += n
        }
        @inline(__always) func put(_ text: StaticString) { put(text.utf8Start, text.utf8CodeUnitCount) }
        @inline(__always) func putStatus() {
            out[0] = UInt8(48 + status / 100)
            out[1] = UInt8(48 + status / 10 % 10)
            out[2] = UInt8(48 + status % 10)
            out += 3
        }
        put(mb, m.count); put(" "); put(pb, p.count); put(" "); putStatus()
        put(" method="); put(mb, m.count)
        put(" path="); put(pb, p.count)
        put(" status="); putStatus()
        put(" bytes="); out = Self.writeDecimal(UInt(bytes), at: out)
        put(" ms="); out = Self.writeDecimal(UInt(elapsed), at: out)
        put(" remote="); put(rb, r.count)
        out.pointee = 0x0a
        out += 1
        count = out - storage
        return true
    }

    /// Writes a number's digits at `out`; returns where they end.
    @inline(__always)
    private static func writeDecimal(_ number: UInt, at out: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        var digits = 1
        var scale: UInt = 10
        while digits < 20 && number >= scale {
            digits += 1
            if scale > UInt.max / 10 { break }
            scale *= 10
        }
        var magnitude = number
        var at = digits
        repeat {
            at -= 1
            out[at] = UInt8(48 + magnitude % 10)
            magnitude /= 10
        } while magnitude > 0
        return out + digits
    }

    /// A whole record, as `StreamLogSink` writes it.
    public func append(_ record: LogRecord) {
        let time = record.date.timeIntervalSince1970
        let seconds = Int(time.rounded(.down))
        begin(level: record.level, label: record.label, seconds: seconds, milliseconds: Int((time - Double(seconds)) * 1000))
        message(record.message)
        endMessage()
        for (key, value) in record.metadata { field(name: key, value) }
        end()
    }

    // MARK: Writing

    /// Writes every waiting line to the descriptor. Lines stay whole: a batch for a pipe is cut
    /// at line ends into writes of at most PIPE_BUF bytes, which the kernel never interleaves.
    public func flush() {
        guard let fd, count > 0 else { return }
        var start = 0
        while start < count {
            var end = count
            if !wholeWrites && count - start > System.atomicPipeWrite {
                // The last line end within PIPE_BUF bytes; a longer line goes out on its own.
                end = start + System.atomicPipeWrite
                while end > start && storage[end - 1] != 10 { end -= 1 }
                if end == start {
                    end = start + System.atomicPipeWrite
                    while end < count && storage[end - 1] != 10 { end += 1 }
                }
            }
            do { try FileDescriptor(rawValue: fd).write(UnsafeRawBufferPointer(start: storage + start, count: end - start)) } catch {
                // Nowhere to log that logging failed; the lines are dropped, not retried forever.
                count = 0
                return
            }
            start = end
        }
        count = 0
    }

    // MARK: Bytes

    @inline(__always)
    private func reserve(_ bytes: Int) {
        if count + bytes > capacity { makeRoom(bytes) }
    }

    @inline(never)
    private func makeRoom(_ bytes: Int) {
        if fd != nil && count > 0 {
            flush()
            if bytes <= capacity { return }
        }
        let grown = max(capacity * 2, count + bytes)
        let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
        larger.update(from: storage, count: count)
        storage.deallocate()
        storage = larger
        capacity = grown
    }

    @inline(__always)
    private func byte(_ value: UInt8) {
        storage[count] = value
        count += 1
    }

    @inline(__always)
    private func raw(_ ascii: StaticString) {
        reserve(ascii.utf8CodeUnitCount)
        (storage + count).update(from: ascii.utf8Start, count: ascii.utf8CodeUnitCount)
        count += ascii.utf8CodeUnitCount
    }

    private func rawString(_ ascii: String) {
        withBytes(ascii) { bytes in
            reserve(bytes.count)
            copy(bytes)
        }
    }

    /// Copies bytes in; room must have been reserved.
    @inline(__always)
    private func copy(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        (storage + count).update(from: base, count: bytes.count)
        count += bytes.count
    }

    /// The string's UTF-8 bytes, in place when it is native (nearly always), else copied.
    @inline(__always)
    private func withBytes<Result>(_ string: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        if let result = string.utf8.withContiguousStorageIfAvailable(body) { return result }
        var copied = string
        return copied.withUTF8(body)
    }

    private static let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080

    /// Whether a word has a byte equal to `byte`.
    @inline(__always)
    private static func has(_ word: UInt64, _ byte: UInt8) -> Bool {
        let x = word ^ (ones &* UInt64(byte))
        return (x &- ones) & ~x & highs != 0
    }

    /// Whether every byte is at least `low`, and neither a backslash nor (with `checkQuote`) a
    /// quote, nor (with `checkEquals`) `=`, nor (unless `allowHigh`) 0x7F or above; eight bytes
    /// at a time, one branch a word.
    @inline(__always)
    private static func isPlain(_ base: UnsafePointer<UInt8>, _ n: Int, low: UInt8, checkQuote: Bool, allowHigh: Bool,
                                checkEquals: Bool = false) -> Bool {
        let lows = ones &* UInt64(low)
        let backslashes = ones &* 0x5c, quotes = ones &* 0x22, equals = ones &* 0x3d
        var i = 0
        while i + 8 <= n {
            let w = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
            // Below `low`: (w - low…) & ~w; 0x7F and above: (w + 1…) | w; equal to c: x = w ^ c…, (x - 1…) & ~x.
            var bad = (w &- lows) & ~w
            if !allowHigh { bad |= (w &+ ones) | w }
            let b = w ^ backslashes
            bad |= (b &- ones) & ~b
            if checkQuote {
                let q = w ^ quotes
                bad |= (q &- ones) & ~q
            }
            if checkEquals {
                let e = w ^ equals
                bad |= (e &- ones) & ~e
            }
            if bad & highs != 0 { return false }
            i += 8
        }
        while i < n {
            let b = base[i]
            if b < low || (!allowHigh && b >= 0x7f) || b == 0x5c || (checkQuote && b == 0x22) || (checkEquals && b == 0x3d) { return false }
            i += 1
        }
        return true
    }

    private func fieldKey(_ key: StaticString) {
        let n = key.utf8CodeUnitCount
        reserve(n + 4)
        // Through a local pointer: a store through `storage` could otherwise be taken to change
        // `count`, which would then be read again for every byte.
        var out = storage + count
        let text = format == .text
        out.pointee = text ? 0x20 : UInt8(ascii: ",")
        out += 1
        if !text { out.pointee = 0x22; out += 1 }
        out.update(from: key.utf8Start, count: n)
        out += n
        if text {
            out.pointee = UInt8(ascii: "=")
            out += 1
        } else {
            out[0] = 0x22
            out[1] = UInt8(ascii: ":")
            out += 2
        }
        count = out - storage
    }

    private func decimal(_ number: Int) {
        reserve(21)
        var out = storage + count
        if number < 0 {
            out.pointee = UInt8(ascii: "-")
            out += 1
        }
        count = Self.writeDecimal(number.magnitude, at: out) - storage
    }

    /// Text: the string with every character that could forge or disguise a line escaped;
    /// with `quoting`, in quotes when it holds a space or a quote.
    private func escaped(_ string: String, quoting: Bool) {
        withBytes(string) { bytes in
            guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
            // Nearly every value is plain printable ASCII: copied, then checked in place a word
            // at a time. A message may hold spaces as they are; a value with one is quoted.
            reserve(bytes.count * 10 + 2)
            (storage + count).update(from: base, count: bytes.count)
            if Self.isPlain(storage + count, bytes.count, low: quoting ? 0x21 : 0x20, checkQuote: quoting, allowHigh: false) {
                count += bytes.count
                return
            }
            let needsQuotes = quoting && bytes.contains { $0 == 0x20 || $0 == 0x22 }
            if needsQuotes { byte(0x22) }
            escapeScalars(String(decoding: bytes, as: UTF8.self), quoted: needsQuotes)
            if needsQuotes { byte(0x22) }
        }
    }

    /// Text: a part of the message, escaped as `escaped` does, and quoted when it holds `=` or a
    /// quote (and, with `spacesQuote`, a space): nothing after a space in it can read as a field.
    private func escapedMessage(_ string: String, spacesQuote: Bool) {
        withBytes(string) { bytes in
            guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
            reserve(bytes.count * 10 + 2)
            (storage + count).update(from: base, count: bytes.count)
            if Self.isPlain(storage + count, bytes.count, low: spacesQuote ? 0x21 : 0x20, checkQuote: true, allowHigh: false, checkEquals: true) {
                count += bytes.count
                return
            }
            let needsQuotes = bytes.contains { $0 == 0x22 || $0 == 0x3d || (spacesQuote && $0 == 0x20) }
            if needsQuotes { byte(0x22) }
            escapeScalars(String(decoding: bytes, as: UTF8.self), quoted: needsQuotes)
            if needsQuotes { byte(0x22) }
        }
    }

    private func escapeScalars(_ string: String, quoted: Bool) {
        for scalar in string.unicodeScalars {
            let v = scalar.value
            switch v {
            case 0x5c: byte(0x5c); byte(0x5c)
            case 0x22 where quoted: byte(0x5c); byte(0x22)
            case 0x0a: byte(0x5c); byte(UInt8(ascii: "n"))
            case 0x0d: byte(0x5c); byte(UInt8(ascii: "r"))
            case 0x09: byte(0x5c); byte(UInt8(ascii: "t"))
            case 0..<0x20, 0x7f:
                byte(0x5c); byte(UInt8(ascii: "x")); hex(v, digits: 2)
            case 0x80...0x9f, 0x2028...0x202e, 0x2066...0x2069:
                byte(0x5c); byte(UInt8(ascii: "u")); byte(UInt8(ascii: "{")); hex(v, digits: v < 0x100 ? 2 : 4); byte(UInt8(ascii: "}"))
            default:
                for unit in String(scalar).utf8 { byte(unit) }
            }
        }
    }

    private func hex(_ value: UInt32, digits: Int) {
        let alphabet: StaticString = "0123456789abcdef"
        for shift in stride(from: (digits - 1) * 4, through: 0, by: -4) {
            byte(alphabet.utf8Start[Int((value >> UInt32(shift)) & 0xf)])
        }
    }

    private func jsonQuoted(_ string: String) {
        raw("\"")
        jsonEscaped(string)
        raw("\"")
    }

    /// JSON string content, escaped by the one rule (`JSONEscaping`). Log lines keep their own
    /// writer rather than going through `JSONWriter`: a line is bytes appended to one buffer
    /// per loop, with no value to encode and nothing to allocate.
    private func jsonEscaped(_ string: String) {
        withBytes(string) { bytes in
            guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
            reserve(bytes.count * JSONEscaping.maxExpansion)
            if JSONEscaping.isPlain(bytes) {
                (storage + count).update(from: base, count: bytes.count)
                count += bytes.count
                return
            }
            count += JSONEscaping.escape(bytes, to: storage + count)
        }
    }
}
