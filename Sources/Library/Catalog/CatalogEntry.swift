import FolderScan

/// One row of the catalog: everything learnt about a file, kept across restarts.
struct CatalogEntry: Hashable, Sendable {
    var id: Int
    /// Path relative to the photos folder, where the file was last seen.
    var path: String
    /// False once the file has gone; the row stays so the id is never given to another file
    /// and comes back if the same file returns (at the same path, or elsewhere with the same bytes).
    var present: Bool
    /// How the file looked when last seen.
    var fingerprint: FileFingerprint
    /// Content hash of the bytes (16 hex digits), settings not included; empty until first hashed.
    var contentHash: String
    /// Which function made `contentHash`.
    var hashKind: ContentHash.Kind
    /// Whether `contentHash` (and size, error) describe the file as `fingerprint` says it is now.
    /// False for a file not examined yet, or changed since: it is listed and queued, and its
    /// version is provisional until the background examines it.
    var hashed: Bool
    var width: Int
    var height: Int
    /// Why the photo cannot be shown, valid only while `errorVersion` is the current version.
    var error: String?
    var errorVersion: String?
    /// When the file was first found missing (nanoseconds since the epoch), nil while it is
    /// there: a removed photo's pyramid is kept for a grace period from then, and a photo of a
    /// folder that went missing stays listed for that long.
    var missingSince: Int?
    /// When the photo was taken (RFC 3339, the offset when known), where that came from
    /// (`CaptureDate.Source`), and what else its header says (the `details` JSON object of
    /// `PhotoDetails`): nil until the header has been read for them.
    var taken: String?
    var takenSource: String?
    var details: String?

    init(id: Int = 0, path: String, present: Bool = true, fingerprint: FileFingerprint, contentHash: String,
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
