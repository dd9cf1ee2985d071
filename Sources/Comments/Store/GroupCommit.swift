import Dispatch
import Synchronization

/// Lets concurrent writers share one durable commit.
///
/// Each fsync costs the same whether it covers one row or fifty, so when several threads post at
/// once, the first becomes the leader and commits everything queued so far in one transaction;
/// the others sleep until their row is in. No thread of its own: a leader commits one batch (its
/// own item is always in it), then hands leadership to the oldest waiter, so nobody is kept
/// committing other people's work indefinitely. Under no contention a batch is one item and this
/// costs one uncontended lock.
///
/// Items and outputs cross threads (a leader commits other callers' items and hands them their
/// outputs), so both are `Sendable`.
final class GroupCommit<Item: Sendable, Output: Sendable>: Sendable {
    private final class Ticket: Sendable {
        let item: Item
        /// Set by the leader before it signals `wake`; never contended, as the owner reads it only once woken.
        let result = Mutex<Result<Output, any Error>?>(nil)
        let wake = DispatchSemaphore(value: 0)
        init(_ item: Item) { self.item = item }
    }

    private struct State {
        var pending: [Ticket] = []
        var leaderActive = false
    }

    private let state = Mutex(State())
    private let maxBatch: Int
    /// Commits items in order and returns one output per item, or throws and none is committed.
    private let commit: @Sendable ([Item]) throws -> [Output]

    init(maxBatch: Int = 64, commit: @escaping @Sendable ([Item]) throws -> [Output]) {
        self.maxBatch = maxBatch
        self.commit = commit
    }

    /// Returns once `item` is committed (or its batch failed).
    func submit(_ item: Item) throws -> Output {
        let ticket = Ticket(item)
        let leads = state.withLock { state -> Bool in
            state.pending.append(ticket)
            if state.leaderActive { return false }
            state.leaderActive = true
            return true
        }
        if !leads {
            ticket.wake.wait()
            // Woken either with a result, or without one to lead the next batch.
            if let result = ticket.result.withLock({ $0 }) { return try result.get() }
        }
        return try lead().get()
    }

    /// Commits the oldest pending items, the leader's own first, and returns the leader's result.
    private func lead() -> Result<Output, any Error> {
        let batch = state.withLock { state -> [Ticket] in
            let count = min(maxBatch, state.pending.count)
            defer { state.pending.removeFirst(count) }
            return Array(state.pending.prefix(count))
        }
        let results: [Result<Output, Error>]
        do {
            let outputs = try commit(batch.map(\.item))
            precondition(outputs.count == batch.count, "a group commit returns one output per item")
            results = outputs.map { .success($0) }
        } catch {
            results = batch.map { _ in .failure(error) }
        }
        // The first ticket is the leader's own, which is not waiting: its result is returned.
        for (ticket, result) in zip(batch, results).dropFirst() { ticket.result.withLock { $0 = result } }
        let next = state.withLock { state -> Ticket? in
            if state.pending.isEmpty {
                state.leaderActive = false
                return nil
            }
            return state.pending.first
        }
        for ticket in batch.dropFirst() { ticket.wake.signal() }
        next?.wake.signal()
        return results[0]
    }
}
