/// Everything that can be suggested, with the photos under each: built from the photos' facts
/// (places, dates, cameras, folders), then asked for what starts with the words typed.
public struct SuggestionVocabulary: Sendable {
    private struct Entry: Sendable {
        var kind: SearchSuggestion.Kind
        var text: String
        var query: String
        /// The text folded, and its words, to match what is typed against.
        var folded: String
        var words: [String]
        var photoIDs: [Int] = []
    }

    private var entries: [Entry] = []
    private var positions: [String: Int] = [:]

    public init() {}

    /// Records that a photo falls under a suggestion.
    public mutating func add(_ kind: SearchSuggestion.Kind, text: String, query: String? = nil, photoID: Int) {
        let key = kind.rawValue + "\u{0}" + text
        if let position = positions[key] {
            if entries[position].photoIDs.last != photoID { entries[position].photoIDs.append(photoID) }
            return
        }
        let words = SearchFolding.words(text)
        positions[key] = entries.count
        entries.append(Entry(kind: kind, text: text, query: query ?? text, folded: words.joined(separator: " "),
                             words: words, photoIDs: [photoID]))
    }

    /// At most `limit` suggestions whose text starts with what was typed (or, for one word typed,
    /// one of whose words does), among the photos `sees` lets through and the kinds `kinds`
    /// allows (nil: every photo, counted without asking each); most photos first, then by text.
    public func suggestions(for typed: String, limit: Int = 10, kinds: Set<SearchSuggestion.Kind> = Set(SearchSuggestion.Kind.allCases),
                            sees: ((Int) -> Bool)? = nil) -> [SearchSuggestion] {
        let typedWords = SearchFolding.words(typed)
        guard !typedWords.isEmpty else { return [] }
        let prefix = typedWords.joined(separator: " ")
        var found: [SearchSuggestion] = []
        for entry in entries where kinds.contains(entry.kind) {
            let starts = entry.folded.hasPrefix(prefix) || (typedWords.count == 1 && entry.words.contains { $0.hasPrefix(prefix) })
            guard starts else { continue }
            let count = sees.map { entry.photoIDs.lazy.filter($0).count } ?? entry.photoIDs.count
            if count > 0 { found.append(SearchSuggestion(kind: entry.kind, text: entry.text, query: entry.query, count: count)) }
        }
        found.sort { $0.count != $1.count ? $0.count > $1.count : $0.text < $1.text }
        return Array(found.prefix(limit))
    }
}
