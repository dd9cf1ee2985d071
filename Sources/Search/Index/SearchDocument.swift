/// A photo's words as the index stores them, one list per field, each word folded by
/// `SearchFolding` (so both engines hold the same words and need no folding of their own).
public struct SearchDocument: Sendable, Hashable {
    /// The words of each field, in order of appearance, without repeats.
    public private(set) var words: [SearchField: [String]] = [:]

    public init() {}

    /// Words longer than this many bytes are not indexed: no one types them, and PostgreSQL's
    /// lexemes are limited.
    public static let longestWord = 100

    /// Adds the words of `text` to `field`.
    public mutating func add(_ text: some StringProtocol, to field: SearchField) {
        for word in SearchFolding.words(text) where word.utf8.count <= Self.longestWord { append(word, to: field) }
    }

    /// Adds a photo's path below the library's folder: the folders' and the file name's words.
    public mutating func addPath(_ path: some StringProtocol) {
        for component in path.split(separator: "/") { add(component, to: .name) }
    }

    /// Adds the day a photo was taken (`DateWords.words`).
    public mutating func addDate(year: Int, month: Int, day: Int) {
        for word in DateWords.words(year: year, month: month, day: day) { append(word, to: .date) }
    }

    /// Adds a place: city, region and country, as `PlaceIndex` names them.
    public mutating func addPlace(_ place: Place) {
        for name in [place.city, place.region, place.country] { add(name, to: .place) }
    }

    /// The words of one field joined by spaces, as a full-text column holds them.
    public func text(of field: SearchField) -> String {
        (words[field] ?? []).joined(separator: " ")
    }

    private mutating func append(_ word: String, to field: SearchField) {
        if words[field, default: []].contains(word) { return }
        words[field, default: []].append(word)
    }
}
