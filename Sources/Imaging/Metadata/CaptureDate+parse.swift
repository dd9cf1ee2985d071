/// Reading the dates and offsets that EXIF, XMP and IPTC spell.
extension CaptureDate {
    /// A clock reading and the offset the text carries, if any.
    struct Parsed: Equatable {
        var localMilliseconds: Int64
        var offsetMinutes: Int?
    }

    /// Whether the text is one of the spellings of "no date" that cameras write: empty, blanks
    /// and colons (`"    :  :     :  :  "`), or all zeros (`0000:00:00 00:00:00`).
    static func isUnset(_ text: String) -> Bool {
        text.allSatisfy { $0 == " " || $0 == ":" || $0 == "-" || $0 == "0" || $0 == "T" }
    }

    /// `2024:03:05 14:22:01` (EXIF), `2024-03-05T14:22:01.250+01:00` (XMP, ISO 8601), seconds
    /// optional, with a trailing offset (`Z`, `+01:00`, `-0530`) when there is one. With
    /// `dateOnly`, `2024-03-05` alone is midnight of that day. nil for anything else.
    static func parse(_ text: String, dateOnly: Bool = false) -> Parsed? {
        let bytes = Array(text.utf8)
        var i = 0
        func number(_ digits: Int) -> Int? {
            guard i + digits <= bytes.count else { return nil }
            var value = 0
            for k in i..<(i + digits) {
                guard bytes[k] >= 0x30, bytes[k] <= 0x39 else { return nil }
                value = value * 10 + Int(bytes[k] - 0x30)
            }
            i += digits
            return value
        }
        func separator(_ allowed: String) -> Bool {
            guard i < bytes.count, allowed.utf8.contains(bytes[i]) else { return false }
            i += 1
            return true
        }
        guard let year = number(4), separator(":-"), let month = number(2), separator(":-"), let day = number(2) else { return nil }
        var hour = 0, minute = 0, second = 0, millisecond = 0
        if i == bytes.count {
            guard dateOnly else { return nil }
        } else {
            guard separator(" T"), let h = number(2), separator(":"), let m = number(2) else { return nil }
            hour = h
            minute = m
            if separator(":") {
                guard let s = number(2) else { return nil }
                second = s
                if separator(".,") {
                    let start = i
                    while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 { i += 1 }
                    guard i > start else { return nil }
                    millisecond = Self.milliseconds(fraction: bytes[start..<i])
                }
            }
        }
        var offset: Int?
        if i < bytes.count {
            guard let parsed = parseOffset(String(decoding: bytes[i...], as: UTF8.self)) else { return nil }
            offset = parsed
        }
        guard let local = localMilliseconds(year: year, month: month, day: day, hour: hour, minute: minute,
                                            second: second, millisecond: millisecond) else { return nil }
        return Parsed(localMilliseconds: local, offsetMinutes: offset)
    }

    /// `Z`, `+01:00`, `-05:30`, `+0100`, `+01` → minutes east of UTC, within ±14 hours; else nil.
    static func parseOffset(_ text: String) -> Int? {
        let trimmed = text.trimming([" ", "\0"])
        if trimmed == "Z" { return 0 }
        let bytes = Array(trimmed.utf8)
        guard let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") else { return nil }
        let digits = bytes.dropFirst().filter { $0 != UInt8(ascii: ":") }
        guard bytes.dropFirst().filter({ $0 == UInt8(ascii: ":") }).count <= 1,
              digits.count == 2 || digits.count == 4, digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        let values = digits.map { Int($0 - 0x30) }
        let hours = values[0] * 10 + values[1]
        let minutes = values.count == 4 ? values[2] * 10 + values[3] : 0
        guard hours <= 14, minutes < 60, hours * 60 + minutes <= 14 * 60 else { return nil }
        return (sign == UInt8(ascii: "-") ? -1 : 1) * (hours * 60 + minutes)
    }

    /// EXIF SubSecTime digits ("5" is half a second, "123" 123 ms) as milliseconds; nil if not digits.
    static func subsecondMilliseconds(_ text: String) -> Int? {
        let digits = Array(text.trimming([" ", "\0"]).utf8)
        guard !digits.isEmpty, digits.count <= 9, digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return milliseconds(fraction: digits[...])
    }

    private static func milliseconds(fraction digits: ArraySlice<UInt8>) -> Int {
        var value = 0
        for (k, digit) in digits.prefix(3).enumerated() {
            value += Int(digit - 0x30) * [100, 10, 1][k]
        }
        return value
    }
}

private extension String {
    func trimming(_ set: Set<Character>) -> String {
        var slice = Substring(self)
        while let first = slice.first, set.contains(first) { slice.removeFirst() }
        while let last = slice.last, set.contains(last) { slice.removeLast() }
        return String(slice)
    }
}

extension CaptureDate {
    /// Reads back what `rfc3339` wrote (and the other ISO 8601 spellings `parse` takes); nil for
    /// anything else.
    public init?(rfc3339 text: String, source: Source) {
        guard let parsed = Self.parse(text) else { return nil }
        self.init(localMilliseconds: parsed.localMilliseconds, offsetMinutes: parsed.offsetMinutes, source: source)
    }
}
