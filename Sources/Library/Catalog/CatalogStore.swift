import Synchronization

/// How a file looked when it was last hashed; unchanged fingerprint means unchanged bytes.
public struct FileFingerprint: Hashable, Sendable {
    public var size: Int
    /// Modification time in nanoseconds since the epoch.
    public var modified: Int
    public var inode: Int

    public init(size: Int, modified: Int, inode: Int) {
        self.size = size
        self.modified = modified
        self.inode = inode
    }
}

/// One row of the catalog: everything learnt about a file, kept across restarts.
public struct CatalogEntry: Hashable, Sendable {
    public var id: Int
    /// Path relative to the photos folder; the key that keeps ids stable.
    public var path: String
    /// False once the file has gone; the row stays so the id is never given to another file
    /// and comes back if the same file returns.
    public var present: Bool
    public var fingerprint: FileFingerprint
    /// Content hash of the bytes (16 hex digits), settings not included.
    public var contentHash: String
    public var width: Int
    public var height: Int
    /// Why the photo cannot be shown, valid only while `errorVersion` is the current version.
    public var error: String?
    public var errorVersion: String?

    public init(id: Int = 0, path: String, present: Bool = true, fingerprint: FileFingerprint, contentHash: String,
                width: Int = 0, height: Int = 0, error: String? = nil, errorVersion: String? = nil) {
        self.id = id
        self.path = path
        self.present = present
        self.fingerprint = fingerprint
        self.contentHash = contentHash
        self.width = width
        self.height = height
        self.error = error
        self.errorVersion = errorVersion
    }
}

/// Where catalog rows persist. The real one is SQLite in the data folder; tests use memory.
public protocol CatalogStore: Sendable {
    /// Every row, present or not, in id order.
    func entries() throws -> [CatalogEntry]
    /// Stores a new row and returns its id; a path already stored (by another process) keeps its id.
    func insert(_ entry: CatalogEntry) throws -> Int
    /// Overwrites the row with `entry.id`.
    func update(_ entry: CatalogEntry) throws
}

/// A catalog kept in memory, for tests and one-off tools.
public final class MemoryCatalogStore: CatalogStore {
    private let rows = Mutex<(next: Int, entries: [Int: CatalogEntry])>((1, [:]))

    public init() {}

    public func entries() throws -> [CatalogEntry] {
        rows.withLock { $0.entries.values.sorted { $0.id < $1.id } }
    }

    public func insert(_ entry: CatalogEntry) throws -> Int {
        rows.withLock { rows in
            if let existing = rows.entries.values.first(where: { $0.path == entry.path }) { return existing.id }
            var entry = entry
            entry.id = rows.next
            rows.next += 1
            rows.entries[entry.id] = entry
            return entry.id
        }
    }

    public func update(_ entry: CatalogEntry) throws {
        rows.withLock { $0.entries[entry.id] = entry }
    }
}
