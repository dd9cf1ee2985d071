import Synchronization

/// The open connections of each remote address over the whole server, shared by the loops'
/// contexts. The kernel spreads one client's connections over the loops' listeners as it
/// likes, so the cap must count them all: a share per loop turned away a browser's sixth
/// connection whenever four of them landed on one loop. Touched once per accept and once per
/// close, never per request.
final class AddressConnections: Sendable {
    private let counts = Mutex<[String: Int]>([:])

    init() {}

    /// Counts one more for `address` when it has fewer than `cap`; false, counting nothing, when not.
    func add(_ address: String, cap: Int) -> Bool {
        counts.withLock { counts in
            let open = counts[address, default: 0]
            guard open < cap else { return false }
            counts[address] = open + 1
            return true
        }
    }

    /// Counts one more for `address`, over its cap if need be (one of its connections was just closed for it).
    func add(_ address: String) {
        counts.withLock { $0[address, default: 0] += 1 }
    }

    func remove(_ address: String) {
        counts.withLock { counts in
            guard let open = counts[address] else { return }
            counts[address] = open > 1 ? open - 1 : nil
        }
    }
}
