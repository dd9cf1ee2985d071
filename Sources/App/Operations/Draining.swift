import Synchronization

/// Whether the server has begun shutting down, so probes can turn load balancers away while
/// in-flight requests finish.
public final class Draining: Sendable {
    private let flag = Atomic<Bool>(false)

    public init() {}

    /// Marks the start of shutdown; from now on `/healthz` and `/readyz` answer 503.
    public func begin() { flag.store(true, ordering: .releasing) }

    /// Whether shutdown has begun.
    public var isDraining: Bool { flag.load(ordering: .acquiring) }
}
