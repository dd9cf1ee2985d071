/// How well a photo's words answer a query, worked out here rather than by an engine, so that
/// SQLite and PostgreSQL put the same photos in the same order: for each term, its best match
/// among the photo's words, a whole word above a prefix, and a place, a date or a camera above a
/// name or a comment (what one types to find a photo is more often where and when than the words
/// said about it). Ties go to the newer photo, which is the caller's to break.
public enum SearchRanking {
    /// The photo's score for the query; 0 when some term matches none of its words.
    public static func score(_ query: SearchQuery, words: [SearchField: [String]]) -> Int {
        var total = 0
        for term in query.terms {
            var best = 0
            for match in term.matches {
                for field in match.fields {
                    for word in words[field] ?? [] {
                        if word == match.word {
                            best = max(best, 2 * weight(field))
                        } else if match.prefix && word.hasPrefix(match.word) {
                            best = max(best, weight(field))
                        }
                    }
                }
            }
            if best == 0 { return 0 }
            total += best
        }
        return total
    }

    /// The same score read from the index's stored texts (a field's words joined by spaces) in
    /// place: a search scores every photo that matches, and splitting each into arrays of strings
    /// was most of its time. Words are compared by their UTF-8 bytes, which for words of one
    /// folding (NFKD, so already in a normal form) is the equality `score(_:words:)` uses, and a
    /// prefix is a prefix of bytes, as the engines read one.
    public static func score(_ query: SearchQuery, texts: (SearchField) -> String) -> Int {
        var total = 0
        for term in query.terms {
            var best = 0
            for match in term.matches {
                let wanted = Array(match.word.utf8)
                for field in match.fields {
                    let weight = weight(field)
                    guard 2 * weight > best else { continue }
                    var text = texts(field)
                    best = max(best, text.withUTF8 { bytes in
                        wordScore(wanted, prefix: match.prefix, in: bytes, weight: weight)
                    })
                }
            }
            if best == 0 { return 0 }
            total += best
        }
        return total
    }

    /// The best of `wanted` among the space-separated words of `bytes`: twice `weight` for a
    /// whole word, `weight` for a prefix (when allowed), 0 for none.
    static func wordScore(_ wanted: [UInt8], prefix: Bool, in bytes: UnsafeBufferPointer<UInt8>, weight: Int) -> Int {
        var best = 0
        var start = 0
        while start < bytes.count {
            var end = start
            while end < bytes.count && bytes[end] != 0x20 { end += 1 }
            let length = end - start
            if length > 0 && length >= wanted.count && (length == wanted.count || prefix) {
                var same = true
                for i in 0..<wanted.count where bytes[start + i] != wanted[i] {
                    same = false
                    break
                }
                if same {
                    if length == wanted.count { return 2 * weight }
                    best = weight
                }
            }
            start = end + 1
        }
        return best
    }

    static func weight(_ field: SearchField) -> Int {
        switch field {
        case .place, .date, .camera: return 3
        case .name, .album: return 2
        case .comment: return 1
        }
    }
}
