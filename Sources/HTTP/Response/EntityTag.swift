/// Entity-tag comparison (RFC 9110 §8.8.3) over header text such as `"abc"`, `W/"abc"` or a list.
enum EntityTag {
    /// Whether any tag in `list` (or `*`) matches `tag`; weak comparison ignores `W/`.
    static func matches(list: String, tag: String, weak: Bool) -> Bool {
        let list = list.trimmingWhitespace()
        if list == "*" { return true }
        let (tagIsWeak, tagValue) = split(tag)
        if !weak && tagIsWeak { return false }
        for candidate in elements(of: list) {
            let (candidateIsWeak, candidateValue) = split(candidate)
            if !weak && candidateIsWeak { continue }
            if candidateValue == tagValue { return true }
        }
        return false
    }

    /// `"abc"` → `"abc-gzip"`, so a compressed representation gets its own strong tag.
    static func variant(_ tag: String, suffix: String) -> String {
        guard tag.hasSuffix("\"") else { return tag }
        return String(tag.dropLast()) + "-" + suffix + "\""
    }

    static func removingVariant(_ tag: String, suffix: String) -> String {
        let marker = "-" + suffix + "\""
        guard tag.hasSuffix(marker) else { return tag }
        return String(tag.dropLast(marker.count)) + "\""
    }

    /// Splits a list on the commas between quoted tags (a comma may sit inside quotes).
    static func elements(of list: String) -> [Substring] {
        var result: [Substring] = []
        var start = list.startIndex, inQuotes = false, index = list.startIndex
        while index < list.endIndex {
            let c = list[index]
            if c == "\"" { inQuotes.toggle() } else if c == "," && !inQuotes {
                result.append(list[start..<index])
                start = list.index(after: index)
            }
            index = list.index(after: index)
        }
        result.append(list[start...])
        return result.map { Substring($0.trimmingWhitespace()) }.filter { !$0.isEmpty }
    }

    static func split<S: StringProtocol>(_ tag: S) -> (weak: Bool, value: Substring) {
        let tag = Substring(tag)
        if tag.hasPrefix("W/") { return (true, tag.dropFirst(2)) }
        return (false, tag)
    }
}

/// A single byte range from a `Range` header, resolved against a length.
enum ByteRange: Equatable {
    case satisfiable(Range<Int>)
    case unsatisfiable
    /// Not a single `bytes=` range we serve (multiple ranges, other units, bad syntax): answer 200.
    case ignore

    static func parse(_ header: String, length: Int) -> ByteRange {
        let text = header.trimmingWhitespace()
        guard text.lowercased().hasPrefix("bytes=") else { return .ignore }
        let spec = text.dropFirst(6).trimmingWhitespace()
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { return .ignore }
        let first = spec[..<dash].trimmingWhitespace(), last = spec[spec.index(after: dash)...].trimmingWhitespace()
        let allDigits: (String) -> Bool = { !$0.isEmpty && $0.utf8.count <= 18 && $0.utf8.allSatisfy { $0 >= 48 && $0 <= 57 } }
        if first.isEmpty {
            guard allDigits(last), let suffix = Int(last) else { return .ignore }
            guard suffix > 0, length > 0 else { return .unsatisfiable }
            return .satisfiable(max(0, length - suffix)..<length)
        }
        guard allDigits(first), let start = Int(first) else { return .ignore }
        var end = length - 1
        if !last.isEmpty {
            guard allDigits(last), let value = Int(last), value >= start else { return .ignore }
            end = min(value, length - 1)
        }
        guard start < length else { return .unsatisfiable }
        return .satisfiable(start..<(end + 1))
    }
}
