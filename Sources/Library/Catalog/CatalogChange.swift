/// What one update of the catalog changed, by photo id: what live listeners are told.
public struct CatalogChange: Sendable, Equatable {
    /// Photos newly listed (new files, and files that came back).
    public var added: [Int] = []
    /// Listed photos whose record changed: status, version, size, path.
    public var changed: [Int] = []
    /// Photos no longer listed.
    public var removed: [Int] = []

    public init(added: [Int] = [], changed: [Int] = [], removed: [Int] = []) {
        self.added = added
        self.changed = changed
        self.removed = removed
    }

    /// Whether nothing changed.
    public var isEmpty: Bool { added.isEmpty && changed.isEmpty && removed.isEmpty }
}
