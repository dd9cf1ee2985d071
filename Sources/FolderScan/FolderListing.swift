/// What one walk of (part of) the photos folder found.
public struct FolderListing: Sendable {
    /// A photo file and how it looks.
    public struct File: Sendable, Hashable {
        public var path: String
        public var fingerprint: FileFingerprint
    }

    /// What a walk found at a folder.
    public enum DirectoryState: Sendable, Equatable {
        /// Read to the end: this many entries, hidden ones not counted.
        case listed(entries: Int)
        /// Not there (or not a folder).
        case missing
        /// There, but could not be read; why.
        case unreadable(String)
    }

    /// Photo files, folders in name order, files within a folder in the order the file system gives.
    public var files: [File] = []
    /// Every folder the walk tried, by relative path ("" is the photos folder).
    public var directories: [String: DirectoryState] = [:]
    /// `stat` calls made: one per photo file, plus one per link or untyped entry.
    public var stats = 0
    /// What the walk passed over, and how many of each.
    public var skipped: [Skipped: Int] = [:]
    /// The devices of the folders walked.
    public var devices: Set<Int> = []

    public init() {}

    /// Entries a walk does not list.
    public enum Skipped: String, Sendable, CaseIterable, Comparable {
        case linkOutside = "links leading outside the photos folder"
        case linkLoop = "links in a loop (or to a folder listed on the way)"
        case brokenLink = "links to nothing"
        case notRegular = "FIFOs, sockets and devices named as photos"
        case notUTF8 = "names that are not UTF-8"
        case tooDeep = "folders more than 64 levels deep"

        public static func < (a: Skipped, b: Skipped) -> Bool { a.rawValue < b.rawValue }
    }

    mutating func skip(_ reason: Skipped) { skipped[reason, default: 0] += 1 }

    /// One line for the log: `3 links leading outside the photos folder, 1 name that is not UTF-8`.
    public var skippedSummary: String? {
        guard !skipped.isEmpty else { return nil }
        return skipped.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key.rawValue)" }.joined(separator: ", ")
    }
}
