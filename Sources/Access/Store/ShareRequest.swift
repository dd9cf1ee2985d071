/// What a new share link is to be.
public struct ShareRequest: Sendable, Equatable {
    public var target: Share.Target
    /// Unix seconds; nil for a link that never expires.
    public var expiresAt: Int?
    public var password: String?
    public var download: Bool
    public var comments: Bool
    public var location: Bool
    /// Whether the holder may add photos to the folder (a folder's link only).
    public var upload: Bool

    public init(target: Share.Target, expiresAt: Int?, password: String? = nil, download: Bool = false, comments: Bool = true,
                location: Bool = false, upload: Bool = false) {
        self.target = target
        self.expiresAt = expiresAt
        self.password = password
        self.download = download
        self.comments = comments
        self.location = location
        self.upload = upload
    }
}
