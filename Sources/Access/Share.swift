/// A share link: one album, one folder or one photo, to whoever holds its token.
public struct Share: Sendable, Equatable {
    /// What a link shows.
    public enum Target: Sendable, Equatable, Hashable {
        /// An album (a collection of photos), by its id.
        case album(Int)
        /// The photos directly in one folder of the photos folder, by the folder's id.
        case folder(Int)
        case photo(Int)
    }

    public let id: Int
    /// The link's secret: `/s/{token}`.
    public let token: String
    public let target: Target
    /// The user who made it.
    public let createdBy: Int
    /// Unix seconds.
    public let createdAt: Int
    /// Unix seconds; nil for a link that never expires (chosen on purpose when it was made).
    public let expiresAt: Int?
    /// Argon2id of the link's password, when it has one.
    let passwordHash: String?
    /// Whether its holder may download originals.
    public let download: Bool
    /// Whether its holder may read and post comments.
    public let comments: Bool
    /// Whether records say where photos were taken.
    public let location: Bool
    /// Whether its holder may add photos to the shared folder (a folder's link only).
    public let upload: Bool

    public init(id: Int, token: String, target: Target, createdBy: Int, createdAt: Int, expiresAt: Int?, passwordHash: String?,
                download: Bool, comments: Bool, location: Bool, upload: Bool = false) {
        self.id = id
        self.token = token
        self.target = target
        self.createdBy = createdBy
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.passwordHash = passwordHash
        self.download = download
        self.comments = comments
        self.location = location
        self.upload = upload
    }

    /// Whether a password must be given before anything is shown.
    public var hasPassword: Bool { passwordHash != nil }

    /// Whether the link still opens at unix time `now`.
    public func isLive(at now: Int) -> Bool {
        expiresAt.map { now < $0 } ?? true
    }
}
