import Dispatch
import Foundation

/// Lets concurrent writers share one durable commit.
///
/// Each fsync costs the same whether it covers one row or fifty, so when several threads post at
/// once, the first becomes the leader and commits everything queued so far in one transaction;
/// the others sleep until their row is in. No thread of its own: a leader commits one batch (its
/// own item is always in it), then hands leadership to the oldest waiter, so nobody is kept
/// committing other people's work indefinitely. Under no contention a batch is one item and this
/// costs one uncontended lock.
// @unchecked Sendable: `pending` and `leaderActive` are guarded by `lock`; a ticket's result is ordered by its semaphore.
final class GroupCommit<Item, Output>: @unchecked Sendable {
    private final class Ticket {
        let item: Item
        /// Set by the leader before it signals `wake`; the semaphore orders the write before the read.
        var result: Result<Output, Error>?
        let wake = DispatchSemaphore(value: 0)
        init(_ item: Item) { self.item = item }
    }

    private let lock = NSLock()
    private var pending: [Ticket] = []
    private var leaderActive = false
    private let maxBatch: Int
    /// Commits items in order and returns one output per item, or throws and none is committed.
    private let commit: ([Item]) throws -> [Output]

    init(maxBatch: Int = 64, commit: @escaping ([Item]) throws -> [Output]) {
        self.maxBatch = maxBatch
        self.commit = commit
    }

    /// Returns once `item` is committed (or its batch failed).
    func submit(_ item: Item) throws -> Output {
        let ticket = Ticket(item)
        let leads = lock.withLock { () -> Bool in
            pending.append(ticket)
            if leaderActive { return false }
            leaderActive = true
            return true
        }
        if !leads {
            ticket.wake.wait()
            // Woken either with a result, or without one to lead the next batch.
            if let result = ticket.result { return try result.get() }
        }
        lead()
        return try ticket.result!.get()
    }

    private func lead() {
        let batch = lock.withLock { () -> [Ticket] in
            let count = min(maxBatch, pending.count)
            defer { pending.removeFirst(count) }
            return Array(pending.prefix(count))
        }
        let results: [Result<Output, Error>]
        do {
            let outputs = try commit(batch.map(\.item))
            precondition(outputs.count == batch.count, "a group commit returns one output per item")
            results = outputs.map { .success($0) }
        } catch {
            results = batch.map { _ in .failure(error) }
        }
        for (ticket, result) in zip(batch, results) { ticket.result = result }
        let next = lock.withLock { () -> Ticket? in
            if pending.isEmpty {
                leaderActive = false
                return nil
            }
            return pending.first
        }
        // The first ticket is the leader's own, which is not waiting.
        for ticket in batch.dropFirst() { ticket.wake.signal() }
        next?.wake.signal()
    }
}
