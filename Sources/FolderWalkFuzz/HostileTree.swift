// Imports Glibc on purpose: it builds hostile trees (FIFOs,
// sockets, devices, hard links, links out and in loops) with mkfifoat, mknodat, linkat and
// symlinkat, calls the program itself must never make, so POSIX does not offer them. Like a
// test that fakes the operating system, it reaches the C library directly.
#if canImport(Glibc)
import Glibc
#endif
import FolderScan
import POSIX

/// A photos folder built from fuzzer bytes in a scratch folder of its own (in /dev/shm when it
/// can), with everything a hostile folder holds: folders and deep chains of them, photo and
/// other files, symbolic links (to siblings, to parents, to `/`, to files and folders outside,
/// to nothing, to other links, raw targets), hard links (from inside and from outside), FIFOs,
/// sockets and devices, names of up to 255 bytes, names that are not UTF-8, names with dots.
///
/// Beside the photos folder lie `outside/` (a photo and a folder of photos that must never be
/// listed), `photos-evil/` (whose path starts with the photos folder's: a prefix check on
/// strings would let it in) and `extra/`, named as an extra root in some inputs only. At most
/// `maxEntries` entries and one chain of at most `maxChain` folders per input, so every input
/// builds and walks in milliseconds. `remove()` deletes it all, links never followed.
struct HostileTree {
    static let maxOperations = 64
    static let maxEntries = 200
    static let maxChain = PhotoNames.maxDepth + 8

    /// Where an entry lies: which of the scratch folder's top folders it is below.
    enum Area: Int {
        case photos, extra, outside, evil
        var name: String { ["photos", "extra", "outside", "photos-evil"][rawValue] }
    }

    /// What an entry is.
    enum Kind: Equatable {
        case folder
        case file
        /// A second name for the regular file of entry `of`.
        case hardLink(of: Int)
        /// A symbolic link; `leadsOut` when its target lies outside every root for sure.
        case link(target: [UInt8], leadsOut: Bool)
        case fifo, socket, device
    }

    struct Entry {
        var area: Area
        /// The names from the area's folder down; empty for the area's folder itself.
        var components: [[UInt8]]
        var kind: Kind
        /// Device and inode of the entry itself (of the link, for a link).
        var identity: FileIdentity?

        var depth: Int { components.count }

        /// A regular file (by its first name or another).
        var isRegular: Bool {
            switch kind {
            case .file, .hardLink: true
            default: false
            }
        }
    }

    /// The scratch folder, made by `mkdtemp`.
    let base: String
    /// Whether `extra/` is an extra root of this input.
    let extraIsRoot: Bool
    private(set) var entries: [Entry] = []

    var root: String { base + "/photos" }
    var extra: String { base + "/extra" }

    /// Makes a fresh scratch folder and builds `data`'s tree in it; nil if no scratch folder can be
    /// made (nothing to fuzz then).
    init?(_ data: UnsafeRawBufferPointer) {
        var template = Array((Self.scratchParent() + "/folder-walk-fuzz.XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { return nil }
        base = String(cString: made)
        var input = InputBytes(data)
        extraIsRoot = input.next() & 1 == 1
        for area in [Area.photos, .extra, .outside, .evil] {
            mkdir(base + "/" + area.name, 0o755)
            entries.append(Entry(area: area, components: [], kind: .folder, identity: identity(area, [])))
        }
        // What lies outside: a photo, a folder of photos, the evil twin's photo; one photo in extra/.
        place(.outside, [], name: Array("secret.jpg".utf8), .file)
        place(.outside, [], name: Array("dir".utf8), .folder)
        place(.outside, [Array("dir".utf8)], name: Array("o.jpg".utf8), .file)
        place(.evil, [], name: Array("x.jpg".utf8), .file)
        place(.extra, [], name: Array("far.jpg".utf8), .file)
        var operations = 0
        var chained = false
        while !input.isEmpty && operations < Self.maxOperations && entries.count < Self.maxEntries {
            operations += 1
            build(&input, chained: &chained)
        }
    }

    /// /dev/shm when it is a folder this process may write, else $TMPDIR or /tmp.
    private static func scratchParent() -> String {
        if access("/dev/shm", W_OK | X_OK) == 0 { return "/dev/shm" }
        if let temporary = getenv("TMPDIR"), access(temporary, W_OK | X_OK) == 0 { return String(cString: temporary) }
        return "/tmp"
    }

    private var folders: [Int] {
        entries.indices.filter { entries[$0].kind == .folder && (entries[$0].area == .photos || entries[$0].area == .extra) }
    }

    private mutating func build(_ input: inout InputBytes, chained: inout Bool) {
        let operation = input.next() % 10
        let folders = self.folders
        let parent = entries[folders[Int(input.next()) % folders.count]]
        switch operation {
        case 0:
            place(parent.area, parent.components, name: name(&input), .folder)
        case 1, 2:
            let photoBytes = input.next() & 1 == 0
            place(parent.area, parent.components, name: name(&input), .file, photoBytes: photoBytes)
        case 3, 4:
            let target = linkTarget(&input, from: parent)
            place(parent.area, parent.components, name: name(&input), .link(target: target.bytes, leadsOut: target.leadsOut))
        case 5:
            let files = entries.indices.filter { entries[$0].kind == .file }
            guard !files.isEmpty else { return }
            place(parent.area, parent.components, name: name(&input), .hardLink(of: files[Int(input.next()) % files.count]))
        case 6:
            place(parent.area, parent.components, name: name(&input), .fifo)
        case 7:
            place(parent.area, parent.components, name: name(&input), input.next() & 1 == 0 ? .socket : .device)
        case 8 where !chained:
            // A chain of folders, deeper than a walk goes when long enough, a photo at its end.
            chained = true
            var components = parent.components
            let length = 1 + Int(input.next()) % Self.maxChain
            for level in 0..<length where entries.count < Self.maxEntries {
                let folder = Array("c\(level % 10)".utf8)
                guard place(parent.area, components, name: folder, .folder) else { return }
                components.append(folder)
            }
            place(parent.area, components, name: Array("deep.jpg".utf8), .file)
        default:
            // A link back up: to the folder it is in, a parent, the photos folder, or above it.
            let up = Int(input.next()) % (parent.depth + 3)
            let target = up == 0 ? "." : Array(repeating: "..", count: up).joined(separator: "/")
            let leadsOut = parent.area == .photos && up > parent.depth
            place(parent.area, parent.components, name: name(&input), .link(target: Array(target.utf8), leadsOut: leadsOut))
        }
    }

    /// A name for a new entry: short photo and other names, names with dots, raw bytes, long
    /// names up to 255 bytes, names that are not UTF-8.
    private func name(_ input: inout InputBytes) -> [UInt8] {
        let counter = entries.count
        switch input.next() % 8 {
        case 0:
            let table = ["a.jpg", "b.JPG", "c.jpeg", "d.png", ".h.jpg", "..jpg", "e.jpg.", "f", "g.txt", "h.tif",
                         "i.HeIc", "j.jpe", ".x", "k k.jpg", "l.jpg ", "m.jpg.jpg", "n.", "o.webp", "p.gif", "q..jpg"]
            return Array(table[Int(input.next()) % table.count].utf8)
        case 1:
            let length = 1 + Int(input.next()) % 12
            var bytes = (0..<length).map { _ in input.next() }.map { $0 == 0 || $0 == UInt8(ascii: "/") ? UInt8(ascii: "_") : $0 }
            if input.next() & 1 == 1 { bytes += Array(".jpg".utf8) }
            if bytes == [UInt8(ascii: ".")] || bytes == Array("..".utf8) { bytes.insert(UInt8(ascii: "x"), at: 0) }
            return bytes
        case 2:
            let length = 200 + Int(input.next()) % 52
            let fill: UInt8 = input.next() & 1 == 0 ? UInt8(ascii: "a") + UInt8(counter % 26) : 0xE9
            return Array(repeating: fill, count: length) + Array(".jpg".utf8)
        case 3:
            return [0xFF, 0xFE, UInt8(ascii: "0") + UInt8(counter % 10)] + Array(".jpg".utf8)
        case 4:
            return Array("é\(counter).jpg".utf8)
        default:
            let extensions = [".jpg", ".png", "", " .jpg", ".JPEG", ".tiff"]
            return Array("p\(counter)\(extensions[Int(input.next()) % extensions.count])".utf8)
        }
    }

    /// A link's target as seen from `parent`, and whether it leads outside every root for sure.
    private func linkTarget(_ input: inout InputBytes, from parent: Entry) -> (bytes: [UInt8], leadsOut: Bool) {
        let up = Array(repeating: "../", count: parent.depth + (parent.area == .photos || parent.area == .extra ? 1 : 0)).joined()
        let fromPhotos = parent.area == .photos
        switch input.next() % 12 {
        case 0, 1:
            // To an entry already made, by a relative path (through the area's folder).
            let other = entries[Int(input.next()) % entries.count]
            return (Array((up + other.area.name).utf8) + other.components.flatMap { [UInt8(ascii: "/")] + $0 }, fromPhotos && isOutside(other.area))
        case 2:
            // To an entry already made, by its absolute path.
            let other = entries[Int(input.next()) % entries.count]
            return (Array((base + "/" + other.area.name).utf8) + other.components.flatMap { [UInt8(ascii: "/")] + $0 }, isOutside(other.area))
        case 3:
            return (Array("/".utf8), true)
        case 4:
            return (Array((base + "/outside/secret.jpg").utf8), true)
        case 5:
            return (Array((base + "/outside/dir").utf8), true)
        case 6:
            return (Array((up + "outside/secret.jpg").utf8), fromPhotos)
        case 7:
            return (Array((input.next() & 1 == 0 ? up + "photos-evil" : base + "/photos-evil/x.jpg").utf8), true)
        case 8:
            let dangling = ["nowhere.jpg", "missing/x.jpg", "a.jpg/x.jpg", ""]
            return (Array(dangling[Int(input.next()) % dangling.count].utf8), false)
        case 9:
            let magic = ["/proc/self/root", "/proc/self/cwd", "/proc/self/fd/0", "/etc/passwd", "/dev/zero", "/tmp"]
            return (Array(magic[Int(input.next()) % magic.count].utf8), true)
        case 10:
            let length = 1 + Int(input.next()) % 32
            return ((0..<length).map { _ in input.next() }.map { $0 == 0 ? UInt8(ascii: ".") : $0 }, false)
        default:
            let spelled = [base + "/photos", base + "/photos/../outside", base + "//photos/./", base + "/extra/far.jpg"]
            let choice = Int(input.next()) % spelled.count
            return (Array(spelled[choice].utf8), choice == 1 || (choice == 3 && !extraIsRoot))
        }
    }

    /// Whether `area` lies outside every root of this input.
    private func isOutside(_ area: Area) -> Bool {
        area == .outside || area == .evil || (area == .extra && !extraIsRoot)
    }

    /// Makes one entry named `name` in the folder at `components` of `area`; false when the
    /// system refused it (a name taken, a device without the privilege, a path too long).
    @discardableResult
    private mutating func place(_ area: Area, _ components: [[UInt8]], name: [UInt8], _ kind: Kind, photoBytes: Bool = true) -> Bool {
        guard let folder = openFolder(area, components) else { return false }
        defer { Glibc.close(folder) }
        let cName = name.map { CChar(bitPattern: $0) } + [0]
        let made: Int32
        switch kind {
        case .folder:
            made = mkdirat(folder, cName, 0o755)
        case .file:
            let file = openat(folder, cName, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            guard file >= 0 else { return false }
            // Photo-looking bytes or text: the walk never reads them, the opener checks kind only.
            let jpeg: [UInt8] = photoBytes ? [0xFF, 0xD8, 0xFF, 0xE0] : Array("text".utf8)
            _ = jpeg.withUnsafeBytes { write(file, $0.baseAddress, $0.count) }
            Glibc.close(file)
            made = 0
        case .hardLink(let of):
            let source = entries[of]
            guard let sourceFolder = openFolder(source.area, Array(source.components.dropLast())) else { return false }
            defer { Glibc.close(sourceFolder) }
            let sourceName = source.components.last!.map { CChar(bitPattern: $0) } + [0]
            made = linkat(sourceFolder, sourceName, folder, cName, 0)
        case .link(let target, _):
            made = symlinkat(target.map { CChar(bitPattern: $0) } + [0], folder, cName)
        case .fifo:
            made = mkfifoat(folder, cName, 0o644)
        case .socket:
            made = mknodat(folder, cName, S_IFSOCK | 0o644, 0)
        case .device:
            made = mknodat(folder, cName, S_IFCHR | 0o644, 259)  // 1,3: what /dev/null is
        }
        guard made == 0 else { return false }
        let path = components + [name]
        entries.append(Entry(area: area, components: path, kind: kind, identity: identity(area, path)))
        return true
    }

    /// Opens the folder at `components` of `area` one name at a time, links never followed.
    func openFolder(_ area: Area, _ components: [[UInt8]]) -> Int32? {
        var folder = open(base + "/" + area.name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        for component in components where folder >= 0 {
            let next = openat(folder, component.map { CChar(bitPattern: $0) } + [0], O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            Glibc.close(folder)
            folder = next
        }
        return folder >= 0 ? folder : nil
    }

    private func identity(_ area: Area, _ components: [[UInt8]]) -> FileIdentity? {
        guard let folder = openFolder(area, Array(components.dropLast())) else { return nil }
        defer { Glibc.close(folder) }
        var info = stat()
        let name = (components.last ?? Array(".".utf8)).map { CChar(bitPattern: $0) } + [0]
        guard fstatat(folder, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { return nil }
        return FileIdentity(info)
    }

    /// Every entry, one a line, for a find's report.
    var description: String {
        var lines = "tree (\(extraIsRoot ? "extra/ is an extra root" : "no extra root")):\n"
        for entry in entries {
            let path = entry.area.name + "/" + entry.components.map { String(decoding: $0, as: UTF8.self) }.joined(separator: "/")
            var kind = "\(entry.kind)"
            if case .link(let target, let leadsOut) = entry.kind {
                kind = "link -> \(String(decoding: target, as: UTF8.self))\(leadsOut ? " (leads out)" : "")"
            }
            lines += "  \(path.count > 120 ? String(path.prefix(60)) + "…" + String(path.suffix(60)) : path): \(kind)\n"
        }
        return lines
    }

    /// Deletes the scratch folder and everything in it, links never followed.
    func remove() {
        let folder = open(base, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        if folder >= 0 {
            Self.empty(folder)
            Glibc.close(folder)
        }
        rmdir(base)
    }

    private static func empty(_ folder: Int32) {
        var names: [(name: [CChar], isFolder: Bool)] = []
        try? FileDescriptor(rawValue: folder).forEachEntry { entry in
            names.append((entry.name.map { CChar(bitPattern: $0) } + [0], Int(entry.type) == DT_DIR))
            return true
        }
        for (name, isFolder) in names {
            if isFolder {
                let inner = openat(folder, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                if inner >= 0 {
                    empty(inner)
                    Glibc.close(inner)
                }
                unlinkat(folder, name, AT_REMOVEDIR)
            } else {
                unlinkat(folder, name, 0)
            }
        }
    }
}
