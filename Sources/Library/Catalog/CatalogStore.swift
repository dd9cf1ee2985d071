import FolderScan
import Synchronization

/// One row of the catalog: everything learnt about a file, kept across restarts.
public struct CatalogEntry: Hashable, Sendable {
    public var id: Int
    /// Path relative to the photos folder, where the file was last seen.
    public var path: String
    /// False once the file has gone; the row stays so the id is never given to another file
    /// and comes back if the same file returns (at the same path, or elsewhere with the same bytes).
    public var present: Bool
    /// How the file looked when last seen.
    public var fingerprint: FileFingerprint
    /// Content hash of the bytes (16 hex digits), settings not included; empty until first hashed.
    public var contentHash: String
    /// Which function made `contentHash`.
    public var hashKind: ContentHash.Kind
    /// Whether `contentHash` (and size, error) describe the file as `fingerprint` says it is now.
    /// False for a file not examined yet, or changed since: it is listed and queued, and its
    /// version is provisional until the background examines it.
    public var hashed: Bool
    public var width: Int
    public var height: Int
    /// Why the photo cannot be shown, valid only while `errorVersion` is the current version.
    public var error: String?
    public var errorVersion: String?
    /// When the file was first found missing (nanoseconds since the epoch), nil while it is
    /// there: a removed photo's pyramid is kept for a grace period from then, and a photo of a
    /// folder that went missing stays listed for that long.
    public var missingSince: Int?
    /// When the photo was taken (RFC 3339, the offset when known), where that came from
    /// (`CaptureDate.Source`), and what else its header says (the `details` JSON object of
    /// `PhotoDetails`): nil until the header has been read for them.
    public var taken: String?
    public var takenSource: String?
    public var details: String?

    public init(id: Int = 0, path: String, present: Bool = true, fingerprint: FileFingerprint, contentHash: String,
                hashKind: ContentHash.Kind = .xxh3, hashed: Bool = true,
                width: Int = 0, height: Int = 0, error: String? = nil, errorVersion: String? = nil, missingSince: Int? = nil,
                taken: String? = nil, takenSource: String? = nil, details: String? = nil) {
        self.id = id
        self.path = path
        self.present = present
        self.fingerprint = fingerprint
        self.contentHash = contentHash
        self.hashKind = hashKind
        self.hashed = hashed
        self.width = width
        self.height = height
        self.error = error
        self.errorVersion = errorVersion
        self.missingSince = missingSince
        self.taken = taken
        self.takenSource = takenSource
        self.details = details
    }
}

/// One album (a folder of the photos folder) as stored: its id stays when the folder is renamed.
public struct AlbumRow: Hashable, Sendable {
    public var id: Int
    /// The folder, relative to the photos folder.
    public var path: String

    public init(id: Int = 0, path: String) {
        self.id = id
        self.path = path
    }
}

/// Where catalog rows persist. The real one is SQLite in the data folder; tests use memory.
public protocol CatalogStore: Sendable {
    /// Every row, present or not, in id order.
    func entries() throws -> [CatalogEntry]
    /// Stores new rows in one transaction and returns their ids in order; a path already present
    /// (added by another process a moment ago) keeps its id.
    func insert(_ entries: [CatalogEntry]) throws -> [Int]
    /// Overwrites the rows with these ids, in one transaction.
    func update(_ entries: [CatalogEntry]) throws
    /// Every album row, in id order.
    func albums() throws -> [AlbumRow]
    /// Stores album rows in one transaction: a row with id 0 is new and gets the next id, any
    /// other overwrites its row. Returns the ids in order.
    func saveAlbums(_ rows: [AlbumRow]) throws -> [Int]
}

extension CatalogStore {
    /// Stores one new row and returns its id.
    public func insert(_ entry: CatalogEntry) throws -> Int { try insert([entry])[0] }
    /// Overwrites one row.
    public func update(_ entry: CatalogEntry) throws { try update([entry]) }
}

/// A catalog kept in memory, for tests and one-off tools.
public final class MemoryCatalogStore: CatalogStore {
    private let rows = Mutex<(next: Int, entries: [Int: CatalogEntry])>((1, [:]))
    private let albumRows = Mutex<[Int: AlbumRow]>([:])

    public init() {}

    public func entries() throws -> [CatalogEntry] {
        rows.withLock { $0.entries.values.sorted { $0.id < $1.id } }
    }

    public func insert(_ entries: [CatalogEntry]) throws -> [Int] {
        rows.withLock { rows in
            var presentPaths: [String: Int] = [:]
            for row in rows.entries.values where row.present { presentPaths[row.path] = row.id }
            return entries.map { entry in
                if entry.present, let existing = presentPaths[entry.path] { return existing }
                var entry = entry
                entry.id = rows.next
                rows.next += 1
                rows.entries[entry.id] = entry
                if entry.present { presentPaths[entry.path] = entry.id }
                return entry.id
            }
        }
    }

    public func update(_ entries: [CatalogEntry]) throws {
        rows.withLock { rows in
            for entry in entries { rows.entries[entry.id] = entry }
        }
    }

    public func albums() throws -> [AlbumRow] {
        albumRows.withLock { $0.values.sorted { $0.id < $1.id } }
    }

    public func saveAlbums(_ rows: [AlbumRow]) throws -> [Int] {
        albumRows.withLock { albums in
            rows.map { row in
                var row = row
                if row.id == 0 { row.id = (albums.keys.max() ?? 0) + 1 }
                albums[row.id] = row
                return row.id
            }
        }
    }
}
