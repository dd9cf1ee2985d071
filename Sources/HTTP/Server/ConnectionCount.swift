import Synchronization

/// The open connections of the whole server, shared by the loops' contexts.
final class ConnectionCount: Sendable {
    private let count = Atomic<Int>(0)

    init() {}

    /// Counts one more; returns the new count.
    func add() -> Int { count.add(1, ordering: .relaxed).newValue }

    func subtract() { count.subtract(1, ordering: .relaxed) }
}
