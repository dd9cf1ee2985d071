import Synchronization

/// A catalog kept in memory, for tests and one-off tools.
final class MemoryCatalogStore: CatalogStore {
    private let rows = Mutex<(next: Int, entries: [Int: CatalogEntry])>((1, [:]))
    private let albumRows = Mutex<[Int: AlbumRow]>([:])

    init() {}

    func entries() throws -> [CatalogEntry] {
        rows.withLock { $0.entries.values.sorted { $0.id < $1.id } }
    }

    func insert(_ entries: [CatalogEntry]) throws -> [Int] {
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

    func update(_ entries: [CatalogEntry]) throws {
        rows.withLock { rows in
            for entry in entries { rows.entries[entry.id] = entry }
        }
    }

    func albums() throws -> [AlbumRow] {
        albumRows.withLock { $0.values.sorted { $0.id < $1.id } }
    }

    func saveAlbums(_ rows: [AlbumRow]) throws -> [Int] {
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
