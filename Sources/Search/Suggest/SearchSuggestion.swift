/// One thing offered as one types: a place, a year or month, a camera or lens, a folder, an album; the
/// query that finds its photos, and how many photos the asker sees under it.
public struct SearchSuggestion: Sendable, Hashable, Encodable {
    public enum Kind: String, Sendable, Hashable, Encodable, CaseIterable {
        case place, year, month, camera, folder, album
    }

    public var kind: Kind
    /// As shown: `Lisbon`, `July 2019`, `FUJIFILM X100V`.
    public var text: String
    /// What to search for to find its photos.
    public var query: String
    public var count: Int

    public init(kind: Kind, text: String, query: String, count: Int) {
        self.kind = kind
        self.text = text
        self.query = query
        self.count = count
    }
}
