// Imports Glibc on purpose: the checks ask the kernel what a descriptor is open on
// (readlink of /proc/self/fd, realpath) by themselves, not through POSIX's `Confinement`, which is
// what they check; an oracle built on the code under test would check nothing.
#if canImport(Glibc)
import Glibc
#endif
import FolderScan
import POSIX

/// The photo-folder walk's contract, checked on the tree any input builds (`HostileTree`):
/// - the walk ends (libFuzzer's `-timeout` reports one that does not);
/// - every photo it lists lies beneath the photos folder (or an extra root of the input): the
///   confined opener opens it, as a regular file, the inode listed, an inode made inside, and
///   the kernel names the open file beneath a root; no path is listed twice, none is hidden, none
///   deeper than the depth limit;
/// - every folder it walks (the scan's walk and the watcher's) lies beneath a root, and is walked
///   once; both walks walk the same folders;
/// - every plain photo (a regular file with a photo name in folders reached by name) is listed at
///   its path; FIFOs, sockets and devices never are, and are counted as skipped; links known to
///   lead out are counted as leading out; counts of skipped links are never more than the links;
/// - the confined opener, asked for every entry made, never opens a FIFO, socket or device, never
///   follows a link out, and opens nothing outside a root;
/// - no descriptor is left open.
/// A broken rule stops the process (`fatalError`) after saying which and deleting the tree, which
/// libFuzzer reports as a crash.
enum WalkChecks {
    static func check(_ data: UnsafeRawBufferPointer, showing: Bool = false) {
        guard let tree = HostileTree(data) else { return }
        defer { tree.remove() }
        if showing { print(tree.description) }
        Checker(tree: tree).run()
    }
}

private struct Checker {
    let tree: HostileTree
    let confinement: Confinement
    /// The real paths of the roots of this input, as names.
    let realRoots: [[[UInt8]]]
    /// Regular files and folders with a name beneath a root; files with names only outside.
    var insideFiles: Set<FileIdentity> = []
    var insideFolders: Set<FileIdentity> = []
    var outsideOnly: Set<Int> = []

    init(tree: HostileTree) {
        self.tree = tree
        confinement = Confinement(root: tree.root, extraRoots: tree.extraIsRoot ? [tree.extra] : [])
        realRoots = ([tree.root] + (tree.extraIsRoot ? [tree.extra] : [])).compactMap(Self.realPath)
        var outside: Set<FileIdentity> = []
        for entry in tree.entries {
            guard let identity = entry.identity else { continue }
            let inside = entry.area == .photos || (entry.area == .extra && tree.extraIsRoot)
            switch entry.kind {
            case .folder: if inside { insideFolders.insert(identity) }
            case .file, .hardLink: if inside { insideFiles.insert(identity) } else { outside.insert(identity) }
            default: break
            }
        }
        outsideOnly = Set(outside.subtracting(insideFiles).map(\.inode))
    }

    func run() {
        let descriptorsBefore = Self.openDescriptors()
        var scanFolders: [FileIdentity] = []
        let scan = FolderWalk(confinement: confinement, listsFiles: true) { path, descriptor in
            scanFolders.append(self.checkFolder(path, descriptor))
            return true
        }.run([""], recursive: true)
        var watchFolders: [FileIdentity] = []
        let watch = FolderWalk(confinement: confinement, listsFiles: false) { path, descriptor in
            watchFolders.append(self.checkFolder(path, descriptor))
            return true
        }.run([""], recursive: true)

        require(Set(scanFolders).count == scanFolders.count, "a folder walked twice in one scan")
        require(Set(watchFolders).count == watchFolders.count, "a folder walked twice in one watcher walk")
        require(Set(scanFolders) == Set(watchFolders), "the scan and the watcher walked different folders")
        require(watch.files.isEmpty, "the watcher's walk listed files")
        checkListing(scan)
        checkCounts(scan)
        checkOpener()
        // Walks of part of the folder from the first links' paths: the same rules from a linked start.
        var starts = 0
        for entry in tree.entries where entry.area == .photos && starts < 8 {
            guard case .link = entry.kind, let path = Self.text(entry.components),
                  !entry.components.contains(where: { $0.first == UInt8(ascii: ".") }) else { continue }
            starts += 1
            var seen: Set<FileIdentity> = []
            let part = FolderWalk(confinement: confinement, listsFiles: true) { folder, descriptor in
                let identity = self.checkFolder(folder, descriptor)
                self.require(seen.insert(identity).inserted, "\(folder) walked twice from \(path)")
                return true
            }.run([path], recursive: true)
            for file in part.files { checkListed(file) }
        }
        require(Self.openDescriptors() == descriptorsBefore, "descriptors left open: \(descriptorsBefore) before, \(Self.openDescriptors()) after")
    }

    /// A folder the walk entered: beneath a root, made inside. Its identity.
    func checkFolder(_ path: String, _ descriptor: FileDescriptor) -> FileIdentity {
        guard let status = try? descriptor.status() else {
            fail("the walk entered \(path) on a descriptor that cannot be looked at")
        }
        require(status.fileKind == .directory, "the walk entered \(path), which is not a folder")
        let identity = FileIdentity(status)
        require(insideFolders.contains(identity), "the walk entered \(path), a folder not made beneath a root")
        checkBeneath(descriptor, path)
        return identity
    }

    func checkListing(_ listing: FolderListing) {
        var paths: Set<String> = []
        for file in listing.files {
            require(paths.insert(file.path).inserted, "\(file.path) listed twice")
            checkListed(file)
        }
        for folder in listing.directories.keys {
            require(Self.components(folder).count <= PhotoNames.maxDepth, "folder \(folder) walked deeper than \(PhotoNames.maxDepth)")
        }
        // Every plain photo is listed, at its path, as the file it is.
        for entry in tree.entries where entry.area == .photos && isPlain(entry) {
            switch entry.kind {
            case .file, .hardLink:
                guard let path = Self.text(entry.components), PhotoNames.isPhotoName(path.split(separator: "/").last.map(String.init) ?? "") else { continue }
                let found = listing.files.first { $0.path == path }
                require(found != nil, "the photo \(path) was not listed")
                require(found?.fingerprint.inode == entry.identity.map { $0.inode }, "\(path) listed as another file")
            default:
                continue
            }
        }
    }

    /// A photo the walk listed: a photo name, not hidden, not too deep, opened by the confined
    /// opener as a regular file made beneath a root, the inode listed.
    func checkListed(_ file: FolderListing.File) {
        let components = Self.components(file.path)
        require(components.count <= PhotoNames.maxDepth + 1, "\(file.path) listed deeper than \(PhotoNames.maxDepth)")
        require(!components.contains { $0.first == UInt8(ascii: ".") || $0.isEmpty }, "\(file.path) listed through a hidden or empty name")
        require(PhotoNames.isPhotoName(String(decoding: components.last ?? [], as: UTF8.self)), "\(file.path) listed without a photo name")
        require(!outsideOnly.contains(file.fingerprint.inode), "\(file.path) lists a file from outside the roots")
        let opened: Confinement.Opened
        do {
            opened = try confinement.openFile(file.path)
        } catch {
            fail("\(file.path) was listed, but the confined opener refuses it: \(error)")
        }
        defer { opened.descriptor.close() }
        require(opened.status.isRegularFile, "\(file.path) opened as something else than a regular file")
        require(Int(opened.status.st_ino) == file.fingerprint.inode, "\(file.path) opened as another file than listed")
        require(insideFiles.contains(FileIdentity(opened.status)), "\(file.path) opened a file not made beneath a root")
        checkBeneath(opened.descriptor, file.path)
    }

    /// The skip counts against what the tree holds.
    func checkCounts(_ listing: FolderListing) {
        var links = 0, specials = 0
        var plainSpecials = 0, plainLinksOut = 0, plainNotUTF8 = 0, plainTooDeep = 0
        for entry in tree.entries {
            switch entry.kind {
            case .link: links += 1
            case .fifo, .socket, .device: specials += 1
            default: break
            }
            guard entry.area == .photos, isPlain(entry), let name = entry.components.last else { continue }
            let utf8 = String(validating: name, as: UTF8.self) != nil
            let photoName = name.withUnsafeBytes { PhotoNames.isPhotoName($0) }
            switch entry.kind {
            case .fifo, .socket, .device: if photoName && entry.identity != nil { plainSpecials += 1 }
            case .link(_, let leadsOut): if leadsOut && utf8 && name.first != UInt8(ascii: ".") { plainLinksOut += 1 }
            case .file, .hardLink: if photoName && !utf8 { plainNotUTF8 += 1 }
            case .folder:
                if entry.depth > PhotoNames.maxDepth && utf8 && name.first != UInt8(ascii: ".") { plainTooDeep += 1 }
            }
        }
        let skipped = listing.skipped
        func count(_ reason: FolderListing.Skipped) -> Int { skipped[reason, default: 0] }
        require(count(.notRegular) >= plainSpecials, "\(plainSpecials) FIFOs, sockets or devices named as photos, \(count(.notRegular)) counted")
        require(count(.notRegular) <= specials + links, "more non-regular files counted (\(count(.notRegular))) than made")
        require(count(.linkOutside) >= plainLinksOut, "\(plainLinksOut) links lead out for sure, \(count(.linkOutside)) counted")
        require(count(.linkOutside) + count(.brokenLink) + count(.linkLoop) <= links,
                "more links skipped (\(count(.linkOutside)) out, \(count(.brokenLink)) broken, \(count(.linkLoop)) loops) than the \(links) made")
        require(count(.notUTF8) >= plainNotUTF8, "\(plainNotUTF8) photos with names that are not UTF-8, \(count(.notUTF8)) counted")
        require(count(.notUTF8) <= tree.entries.count, "more names that are not UTF-8 counted than entries made")
        require(plainTooDeep == 0 || count(.tooDeep) > 0, "folders deeper than \(PhotoNames.maxDepth) not counted")
        let files = tree.entries.filter(\.isRegular).count
        require(listing.files.count <= files + links, "\(listing.files.count) photos listed from \(files) files and \(links) links")
    }

    /// The confined opener on every entry made in the photos folder: nothing but a regular file
    /// made beneath a root is opened to read; links out and FIFOs, sockets, devices are refused.
    func checkOpener() {
        for entry in tree.entries where entry.area == .photos {
            guard let path = Self.text(entry.components), !path.isEmpty else { continue }
            do {
                let opened = try confinement.openFile(path)
                defer { opened.descriptor.close() }
                require(opened.status.isRegularFile, "the opener opened \(path), not a regular file, to read")
                require(insideFiles.contains(FileIdentity(opened.status)), "the opener opened \(path), a file not made beneath a root")
                checkBeneath(opened.descriptor, path)
                switch entry.kind {
                case .fifo, .socket, .device: fail("the opener opened \(path), a FIFO, socket or device")
                case .link(_, let leadsOut): require(!leadsOut, "the opener followed \(path), a link out")
                case .file, .hardLink: require(FileIdentity(opened.status) == entry.identity, "the opener opened \(path) as another file")
                case .folder: fail("the opener opened \(path), a folder, as a file")
                }
            } catch {
                switch entry.kind {
                case .file, .hardLink: if isPlain(entry) { fail("the opener refused \(path), a plain file: \(error)") }
                default: break
                }
            }
            if let opened = try? confinement.openDirectory(path) {
                defer { opened.descriptor.close() }
                require(insideFolders.contains(FileIdentity(opened.status)), "the opener opened \(path), a folder not made beneath a root")
                checkBeneath(opened.descriptor, path)
            }
        }
    }

    /// Whether an entry is reached from the photos folder by name alone: every folder on the way
    /// a folder (not a link), not hidden, UTF-8, within the depth the walk goes.
    func isPlain(_ entry: HostileTree.Entry) -> Bool {
        let folders = entry.components.dropLast()
        guard folders.count <= PhotoNames.maxDepth else { return false }
        return folders.allSatisfy { $0.first != UInt8(ascii: ".") && String(validating: $0, as: UTF8.self) != nil }
    }

    /// What the kernel says `descriptor` is open on lies beneath a root.
    func checkBeneath(_ descriptor: FileDescriptor, _ path: String) {
        guard let real = Self.realPath("/proc/self/fd/\(descriptor.rawValue)") else { return }  // too long for the kernel to spell
        require(realRoots.contains { real.starts(with: $0) }, "\(path) is open on \(String(decoding: Array(real.joined(separator: [UInt8(ascii: "/")])), as: UTF8.self)), outside every root")
    }

    static func realPath(_ path: String) -> [[UInt8]]? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length: Int
        if path.hasPrefix("/proc/self/fd/") {
            length = readlink(path, &buffer, buffer.count - 1)
        } else {
            guard realpath(path, &buffer) != nil else { return nil }
            length = strlen(buffer)
        }
        guard length > 0, length < buffer.count - 1 else { return nil }
        let bytes = buffer[..<length].map { UInt8(bitPattern: $0) }
        guard bytes.first == UInt8(ascii: "/"), !bytes.reversed().starts(with: Array(" (deleted)".utf8).reversed()) else { return nil }
        return components(bytes)
    }

    static func components(_ path: String) -> [[UInt8]] { components(Array(path.utf8)) }

    static func components(_ bytes: [UInt8]) -> [[UInt8]] {
        bytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true).map(Array.init)
    }

    /// A path of names as the walk spells it, or nil when a name is not UTF-8.
    static func text(_ components: [[UInt8]]) -> String? {
        var names: [String] = []
        for component in components {
            guard let name = String(validating: component, as: UTF8.self) else { return nil }
            names.append(name)
        }
        return names.joined(separator: "/")
    }

    static func openDescriptors() -> Int {
        var count = 0
        guard let folder = try? FileDescriptor.open("/proc/self/fd", OpenFlags.readOnly | OpenFlags.directory) else { return 0 }
        defer { folder.close() }
        try? folder.forEachEntry { _ in
            count += 1
            return true
        }
        return count
    }

    func require(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition { fail(message()) }
    }

    func fail(_ message: String) -> Never {
        let description = "folder walk rule broken: \(message)\n\(tree.description)"
        try? Array(description.utf8).withUnsafeBytes { try FileDescriptor(rawValue: 2).write($0) }
        tree.remove()
        fatalError(message)
    }
}
