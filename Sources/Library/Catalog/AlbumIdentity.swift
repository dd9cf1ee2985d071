/// Which folder is which album. Updated whenever the list or a photo's folder changes; a folder
/// new to it takes the id of an album whose folder is gone if at least half of that album's
/// photos are now in it (the folder was renamed or moved), else the next id.
struct AlbumIdentity: Sendable {
    var pathOf: [Int: String] = [:]
    var idOf: [String: Int] = [:]
    /// The photos each album held when last looked at (kept for albums whose folder is gone).
    var members: [Int: Set<Int>] = [:]
    /// The catalog's `pathsGeneration` last looked at.
    var seen = -1
    var version = 0

    /// What reading a list of an album needs, copied out so no two locks are held at once.
    struct Snapshot: Sendable {
        var version: Int
        var idOf: [String: Int]
    }

    mutating func load(_ rows: [AlbumRow]) {
        for row in rows {
            // Renamed by another process on the same catalog: the old name is free again.
            if let old = pathOf[row.id], old != row.path, idOf[old] == row.id { idOf[old] = nil }
            pathOf[row.id] = row.path
            idOf[row.path] = row.id
        }
    }
}
