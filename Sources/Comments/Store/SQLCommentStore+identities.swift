import SQL

extension SQLCommentStore {
    public func photoIdentities() throws -> [PhotoIdentity] {
        try checkOpen()
        return try database.query("SELECT photo_id, path, content_hash FROM photo_identities ORDER BY photo_id").map { row in
            PhotoIdentity(photoID: try row.decode(0), path: try row.decode(1), contentHash: try row.decode(2))
        }
    }

    public func record(_ identities: [PhotoIdentity]) throws {
        try checkOpen()
        guard !identities.isEmpty else { return }
        try database.transaction(.write) { tx in
            for identity in identities {
                try tx.run("""
                    INSERT INTO photo_identities (photo_id, path, content_hash) VALUES (\(identity.photoID), \(identity.path), \(identity.contentHash))
                    ON CONFLICT (photo_id) DO UPDATE SET path = excluded.path, content_hash = excluded.content_hash
                    """)
            }
        }
    }

    public func photosWithComments() throws -> [Int] {
        try checkOpen()
        return try database.query("SELECT DISTINCT photo_id FROM comments WHERE photo_id > 0 ORDER BY photo_id")
            .map { try $0.decode(0, as: Int.self) }
    }

    public func reattach(moves: [Int: Int], hide: [Int], identities: [PhotoIdentity]) throws {
        try checkOpen()
        // Staged through ids no photo has, so that 3 → 5 and 5 → 3 in one go do not merge.
        let stage = -(1 << 40)
        try database.transaction(.write) { tx in
            for table in ["comments", "comment_deletions"] {
                for from in Array(moves.keys) + hide {
                    try tx.run("UPDATE \(raw: table) SET photo_id = \(stage - from) WHERE photo_id = \(from)")
                }
                for (from, to) in moves {
                    try tx.run("UPDATE \(raw: table) SET photo_id = \(to) WHERE photo_id = \(stage - from)")
                }
                for from in hide {
                    try tx.run("UPDATE \(raw: table) SET photo_id = \(-from) WHERE photo_id = \(stage - from)")
                }
            }
            try tx.run("DELETE FROM photo_identities")
            for identity in identities {
                try tx.run("INSERT INTO photo_identities (photo_id, path, content_hash) VALUES (\(identity.photoID), \(identity.path), \(identity.contentHash))")
            }
            try tx.notify(channel: Self.channel, payload: CommentChange.reattached.payload)
        }
        counts.invalidateAll()
    }
}
