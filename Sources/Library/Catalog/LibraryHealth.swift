import FolderScan

/// Folders of photos the last scans could not reach, and so did not take as emptied.
///
/// A photos folder (or a folder below it that held photos) that is missing, unreadable or empty
/// is far more often an unmounted disk or a network share that hiccupped than a deletion. Its
/// photos stay listed as they were, pyramids and all, and the library says it is degraded
/// until the folder is back (the photos folder itself) or the grace period ends (a subfolder).
public struct LibraryHealth: Sendable, Equatable {
    /// One folder that could not be reached.
    public struct Unreachable: Sendable, Equatable {
        /// Relative to the photos folder; "" is the photos folder itself.
        public var folder: String
        /// `missing`, `empty`, or the error that reading it gave.
        public var reason: String
        /// Listed photos kept from it.
        public var photos: Int
    }

    /// Folders that could not be reached, by relative path.
    public var unreachable: [String: Unreachable] = [:]

    public init() {}

    /// Whether anything is unreachable.
    public var isDegraded: Bool { !unreachable.isEmpty }

    /// One sentence for /readyz and the log, or nil when all is well.
    public var summary: String? {
        guard isDegraded else { return nil }
        if let root = unreachable[""] {
            return "The photos folder is \(root.reason); its \(root.photos) photos are kept as they were until it is back."
        }
        let folders = unreachable.keys.sorted(by: NaturalOrder.less)
        let photos = unreachable.values.reduce(0) { $0 + $1.photos }
        let named = folders.prefix(3).map { "\($0) (\(unreachable[$0]!.reason))" }.joined(separator: ", ")
        let more = folders.count > 3 ? " and \(folders.count - 3) more" : ""
        return "\(folders.count == 1 ? "A folder" : "\(folders.count) folders") of photos cannot be reached: \(named)\(more); their \(photos) photos are kept as they were for now."
    }
}
