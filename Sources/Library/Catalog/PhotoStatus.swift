/// Where a photo's pyramid stands.
public enum PhotoStatus: String, Sendable, Hashable, CaseIterable {
    /// Queued or being built; every tile is served all the same, rendered on demand.
    case processing
    /// The pyramid for the current version is on disk.
    case ready
    /// The file cannot be shown; `Photo.error` says why.
    case failed

    /// Its place in `allCases`, for tallies kept in an array.
    var index: Int {
        switch self {
        case .processing: 0
        case .ready: 1
        case .failed: 2
        }
    }
}
