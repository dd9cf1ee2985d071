extension SQLiteCommentStore: PhotoIdentityMap {
    public func photoIdentities() throws -> [PhotoIdentity] {
        try withReader { db in
            var identities: [PhotoIdentity] = []
            try db.query("SELECT photo_id, path, content_hash FROM photo_identities ORDER BY photo_id") { row in
                identities.append(PhotoIdentity(photoID: row.int(0), path: row.text(1), contentHash: row.text(2)))
            }
            return identities
        }
    }

    public func record(_ identities: [PhotoIdentity]) throws {
        guard !identities.isEmpty else { return }
        try writer.withLock { db in
            guard let db else { throw CommentStoreError.closed }
            try db.execute("BEGIN IMMEDIATE")
            do {
                for identity in identities {
                    try db.run("INSERT OR REPLACE INTO photo_identities (photo_id, path, content_hash) VALUES (?, ?, ?)",
                               [.integer(identity.photoID), .text(identity.path), .text(identity.contentHash)])
                }
                try db.execute("COMMIT")
            } catch {
                try? db.execute("ROLLBACK")
                throw error
            }
        }
    }

    public func photosWithComments() throws -> [Int] {
        try withReader { db in
            var ids: [Int] = []
            try db.query("SELECT DISTINCT photo_id FROM comments WHERE photo_id > 0 ORDER BY photo_id") { ids.append($0.int(0)) }
            return ids
        }
    }

    public func reattach(moves: [Int: Int], hide: [Int], identities: [PhotoIdentity]) throws {
        // Staged through ids no photo has, so that 3 → 5 and 5 → 3 in one go do not merge.
        let stage = -(1 << 40)
        try writer.withLock { db in
            guard let db else { throw CommentStoreError.closed }
            try db.execute("BEGIN IMMEDIATE")
            do {
                for table in ["comments", "comment_deletions"] {
                    for from in Array(moves.keys) + hide {
                        try db.run("UPDATE \(table) SET photo_id = ? WHERE photo_id = ?", [.integer(stage - from), .integer(from)])
                    }
                    for (from, to) in moves {
                        try db.run("UPDATE \(table) SET photo_id = ? WHERE photo_id = ?", [.integer(to), .integer(stage - from)])
                    }
                    for from in hide {
                        try db.run("UPDATE \(table) SET photo_id = ? WHERE photo_id = ?", [.integer(-from), .integer(stage - from)])
                    }
                }
                try db.execute("DELETE FROM photo_identities")
                for identity in identities {
                    try db.run("INSERT INTO photo_identities (photo_id, path, content_hash) VALUES (?, ?, ?)",
                               [.integer(identity.photoID), .text(identity.path), .text(identity.contentHash)])
                }
                try db.execute("COMMIT")
            } catch {
                try? db.execute("ROLLBACK")
                throw error
            }
            var fresh: [Int: Int] = [:]
            try db.query("SELECT photo_id, COUNT(*) FROM comments GROUP BY photo_id") { fresh[$0.int(0)] = $0.int(1) }
            counts.withLock { $0 = fresh }
        }
    }
}
