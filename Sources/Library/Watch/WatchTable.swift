/// The watched folders (watch descriptor ↔ path relative to the photos folder) and how a batch of
/// inotify events becomes a `WatchOutcome`. Pure: no system calls, so tests feed it events.
struct WatchTable: Sendable {
    // The inotify mask bits this reads (linux/inotify.h), spelled once so this file needs no Glibc.
    static let modify: UInt32 = 0x2, attrib: UInt32 = 0x4, closeWrite: UInt32 = 0x8
    static let movedFrom: UInt32 = 0x40, movedTo: UInt32 = 0x80, create: UInt32 = 0x100, delete: UInt32 = 0x200
    static let deleteSelf: UInt32 = 0x400, moveSelf: UInt32 = 0x800, unmount: UInt32 = 0x2000
    static let overflow: UInt32 = 0x4000, ignored: UInt32 = 0x8000, isDirectory: UInt32 = 0x4000_0000

    /// What each folder is watched for.
    static let mask: UInt32 = attrib | closeWrite | movedFrom | movedTo | create | delete | deleteSelf | moveSelf

    private(set) var paths: [Int32: String] = [:]
    private var watches: [String: Int32] = [:]

    /// The watch of the photos folder itself, when it is watched.
    var rootWatch: Int32? { watches[""] }

    var count: Int { paths.count }

    /// Records that `path` is watched by `watch` (the kernel returns the same one for a folder
    /// watched already, e.g. after it was renamed).
    mutating func add(_ watch: Int32, path: String) {
        if let old = paths[watch], watches[old] == watch { watches[old] = nil }
        paths[watch] = path
        watches[path] = watch
    }

    /// Forgets a watch.
    mutating func remove(_ watch: Int32) {
        if let path = paths.removeValue(forKey: watch), watches[path] == watch { watches[path] = nil }
    }

    /// Watches of `path` and every folder below it.
    func watches(within path: String) -> [Int32] {
        paths.filter { PhotoFolder.isWithin($0.value, path) || $0.value == path }.map(\.key)
    }

    private static func join(_ folder: String, _ name: String) -> String { folder.isEmpty ? name : folder + "/" + name }

    /// Turns one batch of events into what to scan. A folder moved out (from without a matching
    /// to, by cookie, in the same batch) is gone; a folder renamed inside keeps its watches,
    /// re-pathed, and both places are scanned so that its photos are found as moves.
    mutating func handle(_ events: [WatchEvent]) -> WatchOutcome {
        var outcome = WatchOutcome()
        var movedAway: [UInt32: String] = [:]
        var order: [UInt32] = []
        for event in events {
            if event.mask & Self.overflow != 0 {
                outcome.needsFullScan = true
                continue
            }
            if event.mask & Self.ignored != 0 {
                remove(event.watch)
                continue
            }
            guard let folder = paths[event.watch] else { continue }
            if event.mask & (Self.deleteSelf | Self.moveSelf) != 0 {
                // Seen from the parent as well, except for the photos folder itself.
                if folder.isEmpty { outcome.needsFullScan = true }
                continue
            }
            if event.mask & Self.unmount != 0 {
                // A disk under the folder went away: rescan it, but nothing there was deleted.
                outcome.scope.trees.insert(folder)
                continue
            }
            if event.name.isEmpty || event.name.hasPrefix(".") { continue }
            let path = Self.join(folder, event.name)
            if event.mask & Self.isDirectory != 0 {
                if event.mask & Self.movedFrom != 0 {
                    movedAway[event.cookie] = path
                    order.append(event.cookie)
                } else if event.mask & Self.movedTo != 0, let from = movedAway.removeValue(forKey: event.cookie) {
                    // Renamed inside the photos folder: the kernel keeps watching it under its new name.
                    rename(from, to: path)
                    outcome.scope.trees.insert(from)
                    outcome.scope.goneTrees.insert(from)
                    outcome.scope.trees.insert(path)
                    outcome.watch.append(path)
                } else if event.mask & (Self.create | Self.movedTo) != 0 {
                    outcome.watch.append(path)
                    outcome.scope.trees.insert(path)
                } else if event.mask & Self.delete != 0 {
                    outcome.scope.goneTrees.insert(path)
                }
                continue
            }
            guard PhotoFolder.isPhotoName(event.name) else { continue }
            outcome.scope.directories.insert(folder)
            if event.mask & (Self.delete | Self.movedFrom) != 0 { outcome.scope.goneFiles.insert(path) }
            // Events come in order: a file created again is being written until it is closed.
            if event.mask & (Self.create | Self.delete | Self.movedFrom) != 0 { outcome.scope.closedFiles.remove(path) }
            if event.mask & (Self.closeWrite | Self.movedTo) != 0 { outcome.scope.closedFiles.insert(path) }
        }
        for cookie in order {
            guard let path = movedAway[cookie] else { continue }
            // Moved out of the photos folder: what it held is gone, and its watches would now
            // report a folder elsewhere.
            outcome.scope.goneTrees.insert(path)
            for watch in watches(within: path) {
                outcome.unwatch.append(watch)
                remove(watch)
            }
        }
        return outcome
    }

    /// Re-paths the watches of a renamed folder and everything below it.
    private mutating func rename(_ from: String, to: String) {
        for (watch, path) in paths where path == from || PhotoFolder.isWithin(path, from) {
            add(watch, path: to + path.dropFirst(from.count))
        }
    }

    /// Whether a moved-away cookie may still be matched by the next read.
    static func hasUnpairedMove(_ events: [WatchEvent]) -> Bool {
        var pending: Set<UInt32> = []
        for event in events where event.mask & isDirectory != 0 {
            if event.mask & movedFrom != 0 { pending.insert(event.cookie) }
            if event.mask & movedTo != 0 { pending.remove(event.cookie) }
        }
        return !pending.isEmpty
    }
}
