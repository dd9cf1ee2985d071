import Foundation

/// Threads that encode tiles while the thread that owns them goes on decoding: it hands over the
/// tiles of a strip as a batch, and when it needs the strip back it waits for the batch, running
/// queued tiles itself meanwhile (so a crew of no helpers simply runs everything inline).
///
/// Helpers are started by the owner's thread and so share its scheduling priority: a background
/// build's helpers yield to request threads as the build does.
// @unchecked Sendable: `queue`, `stopped` and every batch's counters are guarded by `condition`.
final class TileCrew: @unchecked Sendable {
    /// Tiles handed over together; `wait` returns once every one of them has run.
    final class Batch: @unchecked Sendable {
        fileprivate var pending = 0
        fileprivate var failure: Error?
    }

    private let condition = NSCondition()
    private var queue: [(batch: Batch, work: () throws -> Void)] = []
    private var head = 0
    private var stopped = false
    private var running = 0

    /// Starts `helpers` threads (0: everything runs on the owner's thread, in `wait`).
    init(helpers: Int) {
        for _ in 0..<max(0, helpers) {
            running += 1
            let thread = Thread { [self] in self.help() }
            thread.name = "tile-encode"
            thread.start()
        }
    }

    /// Queues the pieces of work of `batch` (one lock and one wake-up for all of them).
    func submit(_ batch: Batch, _ works: [() throws -> Void]) {
        guard !works.isEmpty else { return }
        condition.lock()
        batch.pending += works.count
        for work in works { queue.append((batch, work)) }
        if running > 0 { condition.broadcast() }
        condition.unlock()
    }

    /// Runs queued work until every piece of `batch` has run; throws the first failure of the batch.
    func wait(_ batch: Batch) throws {
        condition.lock()
        while batch.pending > 0 {
            if let next = take() {
                condition.unlock()
                run(next)
                condition.lock()
            } else {
                condition.wait()
            }
        }
        let failure = batch.failure
        condition.unlock()
        if let failure { throw failure }
    }

    /// Ends the helpers once the queue is empty, and waits for them.
    func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        while running > 0 { condition.wait() }
        condition.unlock()
    }

    /// The next piece of work; called with the lock held.
    private func take() -> (batch: Batch, work: () throws -> Void)? {
        guard head < queue.count else { return nil }
        let next = queue[head]
        head += 1
        if head > 64 && head * 2 > queue.count {
            queue.removeFirst(head)
            head = 0
        }
        return next
    }

    private func run(_ item: (batch: Batch, work: () throws -> Void)) {
        var failure: Error?
        do { try item.work() } catch { failure = error }
        condition.lock()
        if let failure, item.batch.failure == nil { item.batch.failure = failure }
        item.batch.pending -= 1
        if item.batch.pending == 0 { condition.broadcast() }
        condition.unlock()
    }

    private func help() {
        condition.lock()
        while true {
            if let next = take() {
                condition.unlock()
                run(next)
                condition.lock()
            } else if stopped {
                break
            } else {
                condition.wait()
            }
        }
        running -= 1
        condition.broadcast()
        condition.unlock()
    }
}
