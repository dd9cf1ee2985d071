import Dispatch
import SQL
import Synchronization

/// Comments per photo, read from the database and kept in memory, so a listing of thousands of
/// photos asks nothing of the database.
///
/// A count is dropped (made stale) when a change to its photo is committed: by this process at
/// once, and by any other replica through the change notification that the same commit sends.
/// A stale count is read again on its next use. While the notifications cannot be trusted (the
/// listening connection is down, so another replica's change could go unheard), every count is
/// treated as stale, and all are read again in one query at most once a second, in the
/// background: until then, and whenever the database cannot answer, the last known count is
/// served rather than an error.
final class CommentCounts: Sendable {
    /// A count and the change number current when its read began: the read saw every change
    /// up to that number, so a read that began earlier never replaces it.
    private struct Known {
        var count: Int
        var asOf: Int
    }

    private struct State {
        var known: [Int: Known] = [:]
        /// Photos whose count changed since it was read, with the change number that made them stale.
        var stale: [Int: Int] = [:]
        /// The change number of the last invalidation of every count, or nil when none is pending.
        var allStale: Int?
        /// Every invalidation takes the next number, so a read that began before it cannot undo it.
        var changes = 0
        /// Whether every committed change is being heard.
        var trusted = false
        var reloading = false
        var lastReload: ContinuousClock.Instant?
    }

    private let database: SQLDatabase
    private let state = Mutex(State())

    init(database: SQLDatabase) {
        self.database = database
        state.withLock { $0.allStale = 0 }
    }

    /// The count of `photoID`.
    func count(_ photoID: Int) -> Int {
        enum Read { case none, one(since: Int), allNow(since: Int), allInBackground(since: Int) }
        let (value, read) = state.withLock { state -> (Int, Read) in
            let value = state.known[photoID]?.count ?? 0
            // A change this process made, or heard of: read now, so a write is seen by the next read.
            if state.stale[photoID] != nil { return (value, .one(since: state.changes)) }
            if state.allStale != nil {
                if state.trusted { return (value, .allNow(since: state.changes)) }
                // Unheard changes are possible: refresh in the background, at most once a second.
                guard !state.reloading, state.lastReload.map({ ContinuousClock.now - $0 > .seconds(1) }) ?? true else {
                    return (value, .none)
                }
                state.reloading = true
                return (value, .allInBackground(since: state.changes))
            }
            return (value, .none)
        }
        switch read {
        case .none:
            return value
        case .one(let change):
            guard let fresh = try? database.scalar("SELECT COUNT(*) FROM comments WHERE photo_id = \(photoID)", as: Int.self) else {
                return value
            }
            return state.withLock { state in
                if let known = state.known[photoID], known.asOf > change { return known.count }
                state.known[photoID] = Known(count: fresh, asOf: change)
                if let stale = state.stale[photoID], stale <= change { state.stale[photoID] = nil }
                return fresh
            }
        case .allNow(let change):
            return (try? reloadAll(startedAt: change)[photoID] ?? 0) ?? value
        case .allInBackground(let change):
            DispatchQueue.global(qos: .utility).async { [self] in
                _ = try? reloadAll(startedAt: change)
                state.withLock { $0.reloading = false }
            }
            return value
        }
    }

    /// Reads every count in one query; returns them.
    @discardableResult
    func reloadAll() throws -> [Int: Int] {
        try reloadAll(startedAt: currentChange)
    }

    private func reloadAll(startedAt change: Int) throws -> [Int: Int] {
        var fresh: [Int: Int] = [:]
        do {
            for row in try database.query("SELECT photo_id, COUNT(*) FROM comments GROUP BY photo_id") {
                fresh[try row.decode(0)] = try row.decode(1)
            }
        } catch {
            state.withLock { $0.lastReload = .now }
            throw error
        }
        return apply(fresh, readAt: change)
    }

    /// Takes in every count, as read by a query that began at change number `change`. A count
    /// read since by a query that began later is newer, and is kept.
    func apply(_ fresh: [Int: Int], readAt change: Int) -> [Int: Int] {
        state.withLock { state in
            state.lastReload = .now
            var known = fresh.mapValues { Known(count: $0, asOf: change) }
            for (photoID, newer) in state.known where newer.asOf > change { known[photoID] = newer }
            state.known = known
            state.stale = state.stale.filter { $0.value > change }
            if let all = state.allStale, all <= change, state.trusted { state.allStale = nil }
            return known.mapValues(\.count)
        }
    }

    /// The change number now: a read that begins after this call sees every change up to it.
    var currentChange: Int { state.withLock { $0.changes } }

    /// A change to `photoID`'s thread was committed.
    func invalidate(_ photoID: Int) {
        state.withLock { state in
            state.changes += 1
            state.stale[photoID] = state.changes
        }
    }

    /// Anything may have changed.
    func invalidateAll() {
        state.withLock { state in
            state.changes += 1
            state.allStale = state.changes
        }
    }

    /// Whether every committed change is being heard. Losing that makes every count stale
    /// until it is regained and the counts read again.
    func setTrusted(_ trusted: Bool) {
        state.withLock { state in
            state.trusted = trusted
            if !trusted {
                state.changes += 1
                state.allStale = state.changes
            }
        }
    }
}
