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
