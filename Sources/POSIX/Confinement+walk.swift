#if canImport(Glibc)
import Glibc
#endif

extension Confinement {
    /// A root as paths may spell it: as configured, and as it really is (no links on the way).
    struct Anchor {
        var configured: [String]
        var real: [String]
        var path: String
    }

    /// The roots that exist now; the first is `root`. Realpath costs a `stat` per component,
    /// which only this slow path pays.
    func anchors() throws(ConfinementError) -> [Anchor?] {
        var anchors: [Anchor?] = []
        for (index, path) in ([root] + extraRoots).enumerated() {
            guard let real = realpath(path, nil) else {
                if index == 0 { throw .failed(SystemCallError(call: "realpath(\(path))", errno: errno)) }
                anchors.append(nil)
                continue
            }
            let text = String(cString: real)
            free(real)
            anchors.append(Anchor(configured: Self.components(path), real: Self.components(text), path: path))
        }
        return anchors
    }

    static func components(_ path: String) -> [String] {
        path.split(separator: "/", omittingEmptySubsequences: true).map { String($0) }
    }

    /// Resolves `relative` a component at a time: each name is opened with O_NOFOLLOW (O_PATH)
    /// relative to the folder before it, and a link is read and its target spelled into the
    /// names still to walk. `..` steps back to the folder held before; above the root it, and
    /// an absolute link, may only go down the path of a root (this one or an extra one), and
    /// the walk goes on from that root's own descriptor. So no name is ever resolved by the
    /// kernel across a link, and where the walk is at is always known by real names.
    func walk(_ relative: String, for purpose: Purpose) throws(ConfinementError) -> (opened: Opened, location: Location) {
        let anchors = try anchors()
        var anchor = 0
        var held: [FileDescriptor] = []
        defer { for descriptor in held { descriptor.close() } }
        func enter(_ index: Int) throws(ConfinementError) {
            for descriptor in held { descriptor.close() }
            held = []
            do throws(SystemCallError) { held.append(try FileDescriptor.open(anchors[index]!.path, O_PATH | O_DIRECTORY)) } catch { throw .failed(error) }
            anchor = index
        }
        try enter(0)
        var names: [String] = []  // below the anchor, one per held folder after the first
        var pending = Array(Self.components(relative).reversed())
        var links = 0

        /// From `candidate` (absolute names, already spelled), takes pending names while they go
        /// up, or down the path of some root, until a root is reached; anything else is outside.
        func climb(from start: [String]) throws(ConfinementError) {
            var candidate = start
            while true {
                for (index, root) in anchors.enumerated() {
                    guard let root else { continue }
                    for spelling in [root.real, root.configured] where candidate.starts(with: spelling) {
                        try enter(index)
                        names = []
                        pending.append(contentsOf: candidate[spelling.count...].reversed())
                        return
                    }
                }
                let onTheWay = anchors.contains { root in
                    guard let root else { return false }
                    return root.real.starts(with: candidate) || root.configured.starts(with: candidate)
                }
                guard onTheWay, let next = pending.popLast() else { throw .outside(relative) }
                if next == ".." {
                    _ = candidate.popLast()
                } else if next != "." {
                    candidate.append(next)
                }
            }
        }

        var finalName: String?
        var final: (FileDescriptor, stat)?
        while let name = pending.popLast() {
            if name == "." { continue }
            if name == ".." {
                if held.count > 1 {
                    held.removeLast().close()
                    names.removeLast()
                } else {
                    try climb(from: Array(anchors[anchor]!.real.dropLast()))
                }
                continue
            }
            let next: FileDescriptor
            let status: stat
            do throws(SystemCallError) {
                next = try held.last!.open(name, O_PATH | O_NOFOLLOW)
                status = try next.status()
            } catch {
                throw .failed(SystemCallError(call: "openat(\(relative))", errno: error.errno))
            }
            if status.kind == S_IFLNK {
                defer { next.close() }
                links += 1
                guard links <= 40 else { throw .tooManyLinks(relative) }
                let target: [UInt8]?
                do throws(SystemCallError) { target = try next.linkTarget() } catch { throw .failed(error) }
                guard let target, let text = String(validating: target, as: UTF8.self), !text.isEmpty else {
                    throw .outside(relative)
                }
                pending.append(contentsOf: Self.components(text).reversed())
                if text.hasPrefix("/") { try climb(from: []) }
                continue
            }
            if pending.allSatisfy({ $0 == "." }) && !pending.contains("..") {
                finalName = name
                final = (next, status)
                break
            }
            guard status.kind == S_IFDIR else {
                next.close()
                throw .failed(SystemCallError(call: "openat(\(relative))", errno: ENOTDIR))
            }
            held.append(next)
            names.append(name)
        }

        let location = Location(root: anchor, components: names + (finalName.map { [$0] } ?? []))
        guard let (reference, status) = final else {
            // The path ends at a folder held already (the root itself, or after a `..`).
            let folder = held.last!
            let status: stat
            do throws(SystemCallError) { status = try folder.status() } catch { throw .failed(error) }
            switch purpose {
            case .file: throw .notOfKind(relative, wanted: "regular file", status.kind)
            case .reference, .directory:
                do throws(SystemCallError) {
                    let descriptor = try folder.open(".", purpose == .reference ? O_PATH | O_DIRECTORY : O_RDONLY | O_DIRECTORY)
                    return (Opened(descriptor: descriptor, status: status), location)
                } catch { throw .failed(error) }
            }
        }
        switch purpose {
        case .reference:
            return (Opened(descriptor: reference, status: status), location)
        case .directory:
            defer { reference.close() }
            guard status.kind == S_IFDIR else { throw .notOfKind(relative, wanted: "folder", status.kind) }
            do throws(SystemCallError) { return (Opened(descriptor: try reference.open(".", O_RDONLY | O_DIRECTORY), status: status), location) } catch {
                throw .failed(error)
            }
        case .file:
            defer { reference.close() }
            guard status.kind == S_IFREG else { throw .notOfKind(relative, wanted: "regular file", status.kind) }
            // Opened again by name from the folder it is in, and taken only if it is the file
            // just looked at (a swap in between is refused, and O_NONBLOCK keeps even that from
            // hanging on a FIFO; reads of a regular file ignore it).
            let readable: FileDescriptor
            let again: stat
            do throws(SystemCallError) {
                readable = try held.last!.open(finalName!, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY)
                again = try readable.status()
            } catch { throw .failed(error) }
            guard again.st_dev == status.st_dev, again.st_ino == status.st_ino else {
                readable.close()
                throw .failed(SystemCallError(call: "openat(\(relative))", errno: ENOENT))
            }
            return (Opened(descriptor: readable, status: again), location)
        }
    }
}
