import POSIX

/// One walk of (part of) the photos folder, for a scan (folders and photo files) or for the
/// watcher (folders only).
///
/// It never leaves the folder: every folder is opened relative to the one it is in, with
/// O_NOFOLLOW, and every symbolic link is resolved through the folder's `Confinement`, so a
/// link out of it (to `/`, to /etc/shadow) is skipped and counted, never followed. A link that
/// stays inside and leads to a photo or folder listed where it is lists nothing more (so a loop,
/// `a/b -> ..`, costs one look); one into an extra root, or to something not listed by itself,
/// is followed, each folder once per walk (by device and inode). Folders are walked depth
/// first with an explicit stack, at most `PhotoNames.maxDepth` deep, so a 1,000-deep tree
/// holds 64 descriptors and no deep recursion. FIFOs, sockets and devices are never opened;
/// names that are not UTF-8 are skipped and counted.
public struct FolderWalk {
    /// The photos folder (and the extra roots its links may lead into).
    let confinement: Confinement
    /// Whether photo files are looked at (a scan) or only folders (the watcher).
    let listsFiles: Bool
    /// Called for every folder walked, with a descriptor open on it, before what is below it;
    /// returning false ends the walk (the watcher out of watches).
    var onFolder: ((String, FileDescriptor) -> Bool)?

    public init(confinement: Confinement, listsFiles: Bool, onFolder: ((String, FileDescriptor) -> Bool)? = nil) {
        self.confinement = confinement
        self.listsFiles = listsFiles
        self.onFolder = onFolder
    }

    private enum Subfolder {
        case named(String)
        /// Reached through a link, already open.
        case linked(String, FileDescriptor)

        var name: String {
            switch self {
            case .named(let name), .linked(let name, _): name
            }
        }
    }

    private struct Frame {
        let descriptor: FileDescriptor
        let relative: String
        let depth: Int
        /// Subfolders still to walk, the next one last.
        var pending: [Subfolder]
    }

    /// Lists `directories` (relative; "" is the photos folder), each alone or with everything
    /// below it.
    public func run(_ directories: [String], recursive: Bool) -> FolderListing {
        var listing = FolderListing()
        var visited: Set<FileIdentity> = []
        var stopped = false
        for start in directories where !stopped {
            let opened: Confinement.Opened
            do {
                opened = try confinement.openDirectory(start)
            } catch {
                listing.directories[start] = Self.state(of: error)
                continue
            }
            visited.insert(FileIdentity(opened.status))
            let depth = start.isEmpty ? 0 : start.utf8.reduce(1) { $0 + ($1 == UInt8(ascii: "/") ? 1 : 0) }
            // A walk asked to start below the deepest folder read (a change heard there, or a path
            // through a link) reads nothing: its photos would be deeper than any walk lists.
            guard depth <= PhotoNames.maxDepth else {
                opened.descriptor.close()
                listing.skip(.tooDeep)
                continue
            }
            stopped = !walk(from: opened, relative: start, depth: depth, recursive: recursive, visited: &visited, into: &listing)
        }
        return listing
    }

    /// Walks one tree; false when `onFolder` asked to stop.
    private func walk(from start: Confinement.Opened, relative: String, depth: Int, recursive: Bool,
                      visited: inout Set<FileIdentity>, into listing: inout FolderListing) -> Bool {
        var stack: [Frame] = []
        defer {
            for frame in stack {
                frame.descriptor.close()
                for case .linked(_, let descriptor) in frame.pending { descriptor.close() }
            }
        }
        func enter(_ descriptor: FileDescriptor, _ status: FileStatus, _ relative: String, _ depth: Int) -> Bool {
            listing.devices.insert(Int(status.device))
            if let onFolder, !onFolder(relative, descriptor) {
                descriptor.close()
                return false
            }
            let subfolders = read(descriptor, relative: relative, depth: depth, recursive: recursive,
                                  visited: &visited, into: &listing)
            stack.append(Frame(descriptor: descriptor, relative: relative, depth: depth, pending: subfolders.reversed()))
            return true
        }
        guard enter(start.descriptor, start.status, relative, depth) else { return false }
        while let top = stack.last {
            guard let next = stack[stack.count - 1].pending.popLast() else {
                stack.removeLast().descriptor.close()
                continue
            }
            let child = PhotoNames.join(top.relative, next.name)
            let descriptor: FileDescriptor
            let status: FileStatus
            switch next {
            case .linked(_, let opened):
                descriptor = opened
                do { status = try opened.status() } catch {
                    opened.close()
                    listing.directories[child] = .unreadable(error.reason)
                    continue
                }
            case .named(let name):
                do {
                    descriptor = try top.descriptor.open(name, OpenFlags.readOnly | OpenFlags.directory | OpenFlags.noFollow | OpenFlags.nonBlocking)
                } catch {
                    // Gone, or swapped for a file or a link since the folder was read.
                    let gone = [Errno.noSuchFile, Errno.notDirectory, Errno.tooManyLinks].contains(error.errno)
                    listing.directories[child] = gone ? .missing : .unreadable(error.reason)
                    continue
                }
                do { status = try descriptor.status() } catch {
                    descriptor.close()
                    listing.directories[child] = .unreadable(error.reason)
                    continue
                }
                // A bind mount of a folder above: walked once.
                guard visited.insert(FileIdentity(status)).inserted else {
                    descriptor.close()
                    listing.skip(.linkLoop)
                    continue
                }
            }
            guard enter(descriptor, status, child, top.depth + 1) else { return false }
        }
        return true
    }

    /// Reads one folder: its photo files into the listing, its subfolders (in name order, those
    /// reached through links after the others) returned.
    private func read(_ descriptor: FileDescriptor, relative: String, depth: Int, recursive: Bool,
                      visited: inout Set<FileIdentity>, into listing: inout FolderListing) -> [Subfolder] {
        var entries = 0
        var folders: [String] = []
        var links: [String] = []
        var untyped: [String] = []
        var files: [String] = []
        do {
            try descriptor.forEachEntry { entry in
                if entry.isHidden { return true }
                entries += 1
                let kind = entry.fileKind
                let wanted: Bool
                switch kind {
                case .directory: wanted = recursive
                case .regular: wanted = listsFiles && PhotoNames.isPhotoName(entry.name)
                case .symbolicLink: wanted = recursive || (listsFiles && PhotoNames.isPhotoName(entry.name))
                case .unknown: wanted = true
                case .other:
                    if listsFiles && PhotoNames.isPhotoName(entry.name) { listing.skip(.notRegular) }
                    return true
                }
                // Only names kept are spelled as Strings: most entries of a crowded folder are not.
                guard wanted else { return true }
                guard let name = entry.text else {
                    listing.skip(.notUTF8)
                    return true
                }
                switch kind {
                case .directory: folders.append(name)
                case .regular: files.append(name)
                case .symbolicLink: links.append(name)
                case .unknown, .other: untyped.append(name)
                }
                return true
            }
        } catch {
            // A folder that fails halfway (an I/O error on a failing disk) is not a folder
            // whose files are gone: what it did list says nothing about the rest.
            listing.directories[relative] = .unreadable((error as? SystemCallError)?.reason ?? "\(error)")
            return []
        }
        listing.directories[relative] = .listed(entries: entries)
        let prefix = relative.isEmpty ? "" : relative + "/"
        // File systems that do not fill in entry types: one look at each (links not followed).
        for name in untyped {
            listing.stats += 1
            guard let status = try? descriptor.status(of: name) else { continue }
            switch status.fileKind {
            case .directory: if recursive { folders.append(name) }
            case .regular: if listsFiles && PhotoNames.isPhotoName(name) { files.append(name) }
            case .symbolicLink: if recursive || (listsFiles && PhotoNames.isPhotoName(name)) { links.append(name) }
            case .other, .unknown: if listsFiles && PhotoNames.isPhotoName(name) { listing.skip(.notRegular) }
            }
        }
        for name in files {
            listing.stats += 1
            // Not following a link swapped in since the folder was read.
            guard let status = try? descriptor.status(of: name) else { continue }
            if status.isRegularFile {
                listing.files.append(FolderListing.File(path: prefix + name, fingerprint: FileFingerprint(status)))
            } else if status.fileKind != .symbolicLink {
                listing.skip(.notRegular)
            }
        }
        var linked: [Subfolder] = []
        for name in links.sorted(by: NaturalOrder.less) {
            listing.stats += 1
            let path = prefix + name
            let resolved: (opened: Confinement.Opened, location: Confinement.Location)
            do {
                resolved = try confinement.resolve(path)
            } catch {
                switch error {
                case .outside: listing.skip(.linkOutside)
                case .tooManyLinks: listing.skip(.linkLoop)
                default: listing.skip(.brokenLink)
                }
                continue
            }
            let (opened, location) = resolved
            defer { opened.descriptor.close() }
            switch opened.status.fileKind {
            case .regular where listsFiles && PhotoNames.isPhotoName(name):
                if location.root == 0 && PhotoNames.isListed(file: location.components) { continue }
                listing.files.append(FolderListing.File(path: path, fingerprint: FileFingerprint(opened.status)))
            case .directory where recursive:
                if location.root == 0 && PhotoNames.isListed(folder: location.components) { continue }
                guard depth < PhotoNames.maxDepth else {
                    listing.skip(.tooDeep)
                    continue
                }
                guard visited.insert(FileIdentity(opened.status)).inserted else {
                    listing.skip(.linkLoop)
                    continue
                }
                guard let readable = try? opened.descriptor.open(".", OpenFlags.readOnly | OpenFlags.directory) else { continue }
                linked.append(.linked(name, readable))
            case .regular, .directory:
                break
            default:
                if listsFiles && PhotoNames.isPhotoName(name) { listing.skip(.notRegular) }
            }
        }
        guard recursive else { return linked }
        if depth >= PhotoNames.maxDepth {
            for _ in folders { listing.skip(.tooDeep) }
            return linked
        }
        // Only the few folder names are ordered, so photos new to the catalog are met in name order.
        return folders.sorted(by: NaturalOrder.less).map(Subfolder.named) + linked
    }

    /// What a folder that cannot be opened is, for the scan.
    static func state(of error: ConfinementError) -> FolderListing.DirectoryState {
        switch error {
        case .notOfKind: return .missing
        case _ where error.isMissing: return .missing
        default: return .unreadable("\(error)")
        }
    }
}
