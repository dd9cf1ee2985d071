/// How large, how many and how long: the upload settings.
struct UploadLimits: Sendable {
    /// Largest upload in bytes (`maxUploadMegabytes`).
    var maxBytes: Int
    /// Seconds an unfinished upload is kept after its last byte (`uploadExpirySeconds`).
    var expirySeconds: Int
    /// Unfinished uploads one client may have at once (`uploadsPerClient`).
    var perClient: Int
}
