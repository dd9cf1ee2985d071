import Comments
import Library

/// The check at start that comments still sit under the photos they were written for.
///
/// The comment store keeps, beside the comments, which file each commented photo id meant
/// (`PhotoIdentity`: path and content hash). A catalog row with that id agrees when it has the
/// same path (a file edited in place) or the same hash (a file moved, which keeps its id).
/// Anything else is a catalog that numbered its photos anew: the server refuses to start
/// rather than show comments under other photos.
enum PhotoIdentityCheck {
    /// One recorded identity the catalog does not bear out.
    struct Disagreement: Equatable {
        var recorded: PhotoIdentity
        /// The catalog's row under the same id, if there is one.
        var catalog: PhotoFile?
    }

    /// The recorded identities the catalog contradicts. `row` is the catalog's row of an id: only
    /// the photos with comments are looked up, so the cost follows them, not the library's size.
    static func disagreements(recorded: [PhotoIdentity], row: (Int) -> PhotoFile?) -> [Disagreement] {
        recorded.compactMap { identity in
            let row = row(identity.photoID)
            if let row, identity.matches(path: row.path, contentHash: row.contentHash) { return nil }
            return Disagreement(recorded: identity, catalog: row)
        }
    }

    /// What to record now: the current identity of every commented photo whose record is
    /// missing or out of date (moved, or edited in place). Call only when nothing disagrees.
    static func updates(recorded: [PhotoIdentity], row: (Int) -> PhotoFile?, commented: [Int]) -> [PhotoIdentity] {
        let known = Dictionary(recorded.map { ($0.photoID, $0) }, uniquingKeysWith: { a, _ in a })
        return Set(commented + recorded.map(\.photoID)).sorted().compactMap { id in
            guard let row = row(id), !row.contentHash.isEmpty else { return nil }
            let current = PhotoIdentity(photoID: id, path: row.path, contentHash: row.contentHash)
            return known[id] == current ? nil : current
        }
    }

    /// Verifies the store against the catalog and brings the record up to date; throws the
    /// refusal to start when they disagree.
    static func verify(_ map: any PhotoIdentityMap, row: (Int) -> PhotoFile?) throws {
        let recorded = try map.photoIdentities()
        let wrong = disagreements(recorded: recorded, row: row)
        guard wrong.isEmpty else { throw PhotoIdentityError(wrong, photos: recorded.count) }
        try map.record(updates(recorded: recorded, row: row, commented: try map.photosWithComments()))
    }
}
