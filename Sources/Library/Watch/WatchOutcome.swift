/// What a batch of events means for the catalog.
struct WatchOutcome: Sendable, Equatable {
    /// What to rescan, and what the events say is gone.
    var scope = ScanScope()
    /// New folders (relative) to watch, with everything below them.
    var watch: [String] = []
    /// Watches of folders that left the photos folder.
    var unwatch: [Int32] = []
    /// The kernel dropped events, or the photos folder itself went: only a full scan will do.
    var needsFullScan = false
    /// A new folder could not be watched for the watch limit (why, in words): from now on
    /// changes are found by rescans.
    var limitReached: String?

    var isEmpty: Bool { scope.isEmpty && watch.isEmpty && unwatch.isEmpty && !needsFullScan && limitReached == nil }
}
