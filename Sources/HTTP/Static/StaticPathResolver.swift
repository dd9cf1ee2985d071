import Observability
import Synchronization

/// Resolves request targets to real paths inside the root, remembering each answer for a second:
/// `realpath` costs a syscall per path component, and decoding and checking a target is most of
/// the rest, too much for every request of a busy page that asks for the same few files.
final class StaticPathResolver: Sendable {
    let root: String
    private let memory = Mutex<(realRoot: String?, rootCheckedAt: Double, targets: [String: (path: String?, at: Double)])>((nil, -1, [:]))
    /// How long a resolution is trusted; a symlink changed inside the root takes effect after this.
    static let lifetimeSeconds = 1.0
    /// What "a second" is measured on (a test moves a `ManualClock`).
    private let clock: any MonotonicClock

    init(root: String, clock: any MonotonicClock = SystemClock()) {
        self.root = root
        self.clock = clock
    }

    /// The real path for a raw request target (`/app.js?v=2`, `/` for index.html), or nil when
    /// there is no such file inside the root; throws for targets that are refused outright
    /// (encoded slashes, NUL). Refusals are not remembered: they cost their check every time.
    func resolve(target: String) throws -> String? {
        let now = clock.now()
        if let entry = memory.withLock({ $0.targets[target] }), now - entry.at < Self.lifetimeSeconds { return entry.path }
        let path = resolve(try StaticPath.relative(target: target))
        memory.withLock { memory in
            if memory.targets.count > 10_000 { memory.targets.removeAll() }
            memory.targets[target] = (path, now)
        }
        return path
    }

    /// The root's own real path (remembered for a second), or nil when it does not exist.
    var realRoot: String? {
        let now = clock.now()
        if let remembered = memory.withLock({ now - $0.rootCheckedAt < Self.lifetimeSeconds ? $0.realRoot : nil }) { return remembered }
        guard let real = StaticPath.realPath(root) else { return nil }
        memory.withLock { memory in
            memory.realRoot = real
            memory.rootCheckedAt = now
        }
        return real
    }

    /// The real path of `relative`, or nil when it does not exist or leads outside the root.
    func resolve(_ relative: String) -> String? {
        let now = clock.now()
        let rememberedRoot = memory.withLock { now - $0.rootCheckedAt < Self.lifetimeSeconds ? $0.realRoot : nil }
        guard let realRoot = rememberedRoot ?? StaticPath.realPath(root) else { return nil }
        if rememberedRoot == nil {
            memory.withLock { memory in
                memory.realRoot = realRoot
                memory.rootCheckedAt = now
            }
        }
        return StaticPath.resolve(relative, realRoot: realRoot)
    }
}
