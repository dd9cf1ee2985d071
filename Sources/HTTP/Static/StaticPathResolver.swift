import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Resolves request paths to real paths inside the root, remembering each answer for a second:
/// `realpath` costs a syscall per path component, too much for every request of a busy page.
final class StaticPathResolver: Sendable {
    let root: String
    private let memory = Mutex<(realRoot: String?, rootCheckedAt: Double, paths: [String: (path: String?, at: Double)])>((nil, -1, [:]))
    /// Request targets already checked and resolved, by the target as sent: a busy page asks for
    /// the same few targets again and again, and a hit skips decoding and checking it.
    private let targets = Mutex<[String: (path: String?, at: Double)]>([:])
    /// How long a resolution is trusted; a symlink changed inside the root takes effect after this.
    static let lifetimeSeconds = 1.0

    init(root: String) {
        self.root = root
    }

    /// The real path for a raw request target (`/app.js?v=2`), or nil when there is no such
    /// file inside the root; throws for targets that are refused outright (encoded slashes, NUL).
    func resolve(target: String) throws -> String? {
        let now = monotonicSeconds()
        if let entry = targets.withLock({ $0[target] }), now - entry.at < Self.lifetimeSeconds { return entry.path }
        // Refusals are not remembered: they cost their check every time, as they should.
        let path = resolve(try StaticPath.relative(target: target))
        targets.withLock { targets in
            if targets.count > 10_000 { targets.removeAll() }
            targets[target] = (path, now)
        }
        return path
    }

    /// The real path of `relative`, or nil when it does not exist or leads outside the root.
    func resolve(_ relative: String) -> String? {
        let now = monotonicSeconds()
        let remembered = memory.withLock { memory -> (hit: Bool, path: String?, realRoot: String?) in
            if let entry = memory.paths[relative], now - entry.at < Self.lifetimeSeconds { return (true, entry.path, nil) }
            let realRoot = now - memory.rootCheckedAt < Self.lifetimeSeconds ? memory.realRoot : nil
            return (false, nil, realRoot)
        }
        if remembered.hit { return remembered.path }
        guard let realRoot = remembered.realRoot ?? StaticPath.realPath(root) else { return nil }
        let resolved = StaticPath.resolve(relative, realRoot: realRoot)
        memory.withLock { memory in
            memory.realRoot = realRoot
            memory.rootCheckedAt = now
            if memory.paths.count > 10_000 { memory.paths.removeAll() }
            memory.paths[relative] = (resolved, now)
        }
        return resolved
    }
}
