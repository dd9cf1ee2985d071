/// Which part of the photos folder a scan looks at, and what a watcher already knows is gone.
public struct ScanScope: Sendable, Equatable {
    /// Folders whose own files are listed, not their subfolders ("" is the photos folder).
    public var directories: Set<String> = []
    /// Folders listed with everything below them.
    public var trees: Set<String> = []
    /// Files seen deleted or moved away (by inotify): gone, whatever their folder looks like now.
    var goneFiles: Set<String> = []
    /// Folders seen deleted or moved out of the photos folder: everything that was below is gone.
    public var goneTrees: Set<String> = []
    /// Files the watcher saw closed after writing, or moved in: whole now, so a scan takes them
    /// at once instead of waiting for them to be still for a while.
    var closedFiles: Set<String> = []

    public init(directories: Set<String> = [], trees: Set<String> = [], goneFiles: Set<String> = [], goneTrees: Set<String> = [],
                closedFiles: Set<String> = []) {
        self.directories = directories
        self.trees = trees
        self.goneFiles = goneFiles
        self.goneTrees = goneTrees
        self.closedFiles = closedFiles
    }

    /// The whole folder.
    public static let everything = ScanScope(trees: [""])

    /// Whether the scope is the whole folder.
    var isEverything: Bool { trees.contains("") }

    /// Nothing to look at.
    public var isEmpty: Bool { directories.isEmpty && trees.isEmpty && goneFiles.isEmpty && goneTrees.isEmpty }

    /// Both scopes at once.
    public mutating func formUnion(_ other: ScanScope) {
        directories.formUnion(other.directories)
        trees.formUnion(other.trees)
        goneFiles.formUnion(other.goneFiles)
        goneTrees.formUnion(other.goneTrees)
        closedFiles.subtract(other.goneFiles)
        closedFiles.formUnion(other.closedFiles)
    }

    /// Whether a photo at `path` is one this scan accounts for: its folder is listed, or it is
    /// below a listed tree, or the watcher said it is gone.
    public func covers(_ path: String) -> Bool {
        if isEverything { return true }
        if directories.contains(PhotoFolder.parent(of: path)) { return true }
        if goneFiles.contains(path) { return true }
        for tree in trees where PhotoFolder.isWithin(path, tree) { return true }
        for tree in goneTrees where PhotoFolder.isWithin(path, tree) { return true }
        return false
    }

    /// Whether the watcher reported the file at `path` gone.
    func reportsGone(_ path: String) -> Bool {
        if goneFiles.contains(path) { return true }
        for tree in goneTrees where PhotoFolder.isWithin(path, tree) { return true }
        return false
    }
}
