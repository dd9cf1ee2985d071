#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// A folder that paths are opened beneath, and never outside of, whatever its symbolic links say.
///
/// Paths are relative to `root` and resolved at the moment they are opened, so a link swapped in
/// after a path was listed changes nothing: a link is followed only where it leads to a place
/// beneath `root`, or beneath one of `extraRoots` (folders the owner named, such as a second
/// disk that links in the root point to). Anything else (an absolute link out, `..` above the
/// root, a /proc magic link, more than 40 links) refuses the open.
///
/// Where the kernel has openat2 (Linux 5.6), one `RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS` call
/// does the resolution; it refuses every absolute link, so a path through one (or through an
/// extra root) is walked instead, a component at a time, each opened with O_NOFOLLOW relative to
/// the folder before it, links spelled out by hand (`walk`). Nothing but a regular file is ever
/// opened for reading: the file is first opened as a bare reference (O_PATH), its type checked,
/// and only then opened to read, so a FIFO never blocks and a device is never opened.
public struct Confinement: Sendable, Hashable {
    /// The folder paths are relative to.
    public let root: String
    /// Folders outside `root` that its links may lead into.
    public let extraRoots: [String]

    public init(root: String, extraRoots: [String] = []) {
        self.root = Self.standardized(root)
        self.extraRoots = extraRoots.map(Self.standardized)
    }

    /// Where a path leads: the folder it lies in (0 is `root`, then `extraRoots` in order) and the
    /// real names from that folder down.
    public struct Location: Hashable, Sendable {
        public var root: Int
        public var components: [String]

        public init(root: Int, components: [String]) {
            self.root = root
            self.components = components
        }
    }

    /// An open descriptor and the status of what it is open on. Whoever gets it closes it.
    public struct Opened: Sendable {
        public let descriptor: FileDescriptor
        public let status: stat
    }

    /// What an open is for.
    enum Purpose {
        /// Only to look at (O_PATH): anything at all.
        case reference
        /// To read a regular file.
        case file
        /// To list a folder.
        case directory
    }

    /// Opens a regular file beneath the root for reading.
    public func openFile(_ relative: String) throws(ConfinementError) -> Opened {
        if let opened = try fastOpen(relative, for: .file) { return opened }
        return try walk(relative, for: .file).opened
    }

    /// Opens a folder beneath the root for listing.
    public func openDirectory(_ relative: String) throws(ConfinementError) -> Opened {
        if let opened = try fastOpen(relative, for: .directory) { return opened }
        return try walk(relative, for: .directory).opened
    }

    /// The status of what `relative` leads to (links beneath the roots followed), opening nothing
    /// but a reference to it.
    public func status(_ relative: String) throws(ConfinementError) -> stat {
        if let reference = try fastReference(relative) {
            reference.descriptor.close()
            return reference.status
        }
        let (opened, _) = try walk(relative, for: .reference)
        opened.descriptor.close()
        return opened.status
    }

    /// Where `relative` leads, and an O_PATH descriptor of what is there (to look at only).
    /// Always walked by hand, so the place is known by its real names: for listing links.
    public func resolve(_ relative: String) throws(ConfinementError) -> (opened: Opened, location: Location) {
        try walk(relative, for: .reference)
    }

    // MARK: - The one-call path

    /// Whether openat2 answers and /proc/self/fd can reopen what it opened; learnt at first use.
    private static let fastPath = Atomic<Int8>(0)  // 0 unknown, 1 yes, -1 no

    /// An O_PATH reference through openat2, or nil when the path has to be walked by hand (an
    /// absolute link, a path longer than PATH_MAX, a kernel or sandbox without openat2).
    private func fastReference(_ relative: String) throws(ConfinementError) -> Opened? {
        let state = Self.fastPath.load(ordering: .relaxed)
        if state < 0 { return nil }
        if state == 0 {
            let usable = access("/proc/self/fd", F_OK) == 0
            Self.fastPath.store(usable ? 1 : -1, ordering: .relaxed)
            if !usable { return nil }
        }
        let base: FileDescriptor
        do throws(SystemCallError) { base = try FileDescriptor.open(root, O_PATH | O_DIRECTORY) } catch { throw .failed(error) }
        defer { base.close() }
        let raw = openat2Beneath(base.rawValue, relative.isEmpty ? "." : relative, O_PATH)
        guard raw >= 0 else {
            let failure = errno
            switch failure {
            case EXDEV, ENAMETOOLONG, EAGAIN:
                return nil  // an absolute link or an extra root; too long; a rename raced a `..`
            case ENOSYS, EPERM, EINVAL, E2BIG:
                Self.fastPath.store(-1, ordering: .relaxed)  // no openat2 here (old kernel, seccomp)
                return nil
            case ELOOP:
                throw .tooManyLinks(relative)
            default:
                throw .failed(SystemCallError(call: "openat2(\(relative))", errno: failure))
            }
        }
        let reference = FileDescriptor(rawValue: raw)
        do throws(SystemCallError) { return Opened(descriptor: reference, status: try reference.status()) } catch {
            reference.close()
            throw .failed(error)
        }
    }

    /// Opens a file or folder to read through openat2, or nil when it has to be walked.
    private func fastOpen(_ relative: String, for purpose: Purpose) throws(ConfinementError) -> Opened? {
        guard let reference = try fastReference(relative) else { return nil }
        defer { reference.descriptor.close() }
        let status = reference.status
        switch purpose {
        case .reference:
            return nil
        case .directory:
            guard status.kind == S_IFDIR else { throw .notOfKind(relative, wanted: "folder", status.kind) }
            do throws(SystemCallError) { return Opened(descriptor: try reference.descriptor.open(".", O_RDONLY | O_DIRECTORY), status: status) } catch {
                throw .failed(error)
            }
        case .file:
            guard status.kind == S_IFREG else { throw .notOfKind(relative, wanted: "regular file", status.kind) }
            // Reopened through its own descriptor: the very file just checked, whatever the path holds now.
            let readable = Glibc.open("/proc/self/fd/\(reference.descriptor.rawValue)", O_RDONLY | O_NOCTTY | O_CLOEXEC)
            guard readable >= 0 else {
                let failure = errno
                if failure == ENOENT {
                    Self.fastPath.store(-1, ordering: .relaxed)  // /proc went away (a chroot)
                    return nil
                }
                throw .failed(SystemCallError(call: "open(\(relative))", errno: failure))
            }
            return Opened(descriptor: FileDescriptor(rawValue: readable), status: status)
        }
    }

    /// `/a//b/./c/` → `/a/b/c`; relative paths are taken from the working directory.
    static func standardized(_ path: String) -> String {
        var base = path
        if !base.hasPrefix("/") {
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            if getcwd(&buffer, buffer.count) != nil {
                base = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) + "/" + base
            }
        }
        var parts: [Substring] = []
        for part in base.split(separator: "/") where part != "." {
            if part == ".." { _ = parts.popLast() } else { parts.append(part) }
        }
        return "/" + parts.joined(separator: "/")
    }
}
