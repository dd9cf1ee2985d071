import Foundation
import Observability

/// Background ingest, `concurrency` jobs at a time, each queued job once: photos someone is
/// looking at first, then every photo's first stage (thumbnails) in the order queued, then
/// pyramids, the smallest first. Threads run at a lower
/// priority and wait for `yield` before each job, so on-demand work comes first.
// @unchecked Sendable: the heap, the sets and the counters are guarded by `condition`, which the threads wait on.
// It stays unchecked because a Mutex cannot be waited on: idle threads, `waitUntilIdle` and `join` sleep on `condition` until a change or a deadline.
final class IngestQueue: @unchecked Sendable {
    private struct Item {
        var job: IngestJob
        var urgent: Bool
        var sequence: Int

        /// Heap order: urgent first, then first stages (in the order queued), then fewer
        /// pixels, then first queued.
        func precedes(_ other: Item) -> Bool {
            if urgent != other.urgent { return urgent }
            if job.stage != other.job.stage { return job.stage.rawValue < other.job.stage.rawValue }
            if job.stage == .pyramid && job.pixels != other.job.pixels { return job.pixels < other.job.pixels }
            return sequence < other.sequence
        }
    }

    // Everything below is guarded by `condition`.
    private let condition = NSCondition()
    private var heap: [Item] = []
    /// Queued jobs by identity, with the sequence of their current heap item (older items of
    /// the same job are skipped when they surface).
    private var queued: [IngestJob: Int] = [:]
    private var running: Set<IngestJob> = []
    private var urgentPhotos: Set<Int> = []
    /// Queued plus running jobs by stage.
    private var perStage = [Int](repeating: 0, count: IngestStage.allCases.count)
    private var sequence = 0
    private var stopped = false
    private var threads = 0

    private let concurrency: Int
    private let work: @Sendable (IngestJob) -> Void
    private let yield: @Sendable () -> Void
    private let onLengthChange: @Sendable (Int) -> Void
    /// A thread with nothing to do this long ends; `enqueue` starts another when needed.
    static let idleWait: Duration = .seconds(30)

    /// `work` builds one job; `yield` runs before each (and may wait); `onLengthChange` hears the
    /// count of queued and running jobs.
    init(concurrency: Int, onLengthChange: @escaping @Sendable (Int) -> Void = { _ in },
                yield: @escaping @Sendable () -> Void = {}, work: @escaping @Sendable (IngestJob) -> Void) {
        self.concurrency = max(1, concurrency)
        self.work = work
        self.yield = yield
        self.onLengthChange = onLengthChange
    }

    /// Queues a job unless the same photo version is already queued or running.
    func enqueue(_ job: IngestJob) {
        enqueue([job])
    }

    /// Queues jobs (one lock, one wake-up for many).
    func enqueue(_ jobs: [IngestJob]) {
        condition.lock()
        defer { condition.unlock() }
        guard !stopped else { return }
        var added = 0
        for job in jobs where queued[job] == nil && !running.contains(job) {
            push(Item(job: job, urgent: urgentPhotos.contains(job.photoID), sequence: nextSequence()))
            added += 1
        }
        guard added > 0 else { return }
        onLengthChange(queued.count + running.count)
        while threads < min(concurrency, queued.count) {
            threads += 1
            let thread = Thread { [self] in
                BackgroundThread.lowerPriority()
                self.drain()
            }
            thread.name = "ingest"
            thread.start()
        }
        condition.broadcast()
    }

    /// Moves the queued jobs of a photo to the front, and any queued later too: someone is looking at it.
    func prioritize(photoID: Int, version: String) {
        condition.lock()
        defer { condition.unlock() }
        guard urgentPhotos.insert(photoID).inserted else { return }
        if urgentPhotos.count > 64 { urgentPhotos.removeFirst() }
        // Looked up by identity, not by walking the queue: a first start queues every photo.
        for stage in IngestStage.allCases {
            let job = IngestJob(photoID: photoID, version: version, pixels: 0, stage: stage)
            if queued[job] != nil { push(Item(job: job, urgent: true, sequence: nextSequence())) }
        }
    }

    private func nextSequence() -> Int {
        sequence += 1
        return sequence
    }

    private func push(_ item: Item) {
        if queued.updateValue(item.sequence, forKey: item.job) == nil { perStage[item.job.stage.rawValue] += 1 }
        heap.append(item)
        var i = heap.count - 1
        while i > 0 {
            let parent = (i - 1) / 2
            guard heap[i].precedes(heap[parent]) else { break }
            heap.swapAt(i, parent)
            i = parent
        }
    }

    /// The next live job, or nil when none is queued.
    private func pop() -> IngestJob? {
        while !heap.isEmpty {
            let top = heap[0]
            let last = heap.removeLast()
            if !heap.isEmpty {
                heap[0] = last
                var i = 0
                while true {
                    let left = 2 * i + 1, right = left + 1
                    var best = i
                    if left < heap.count && heap[left].precedes(heap[best]) { best = left }
                    if right < heap.count && heap[right].precedes(heap[best]) { best = right }
                    if best == i { break }
                    heap.swapAt(i, best)
                    i = best
                }
            }
            if queued[top.job] == top.sequence {
                queued[top.job] = nil
                return top.job
            }
        }
        return nil
    }

    private func drain() {
        while true {
            condition.lock()
            while queued.isEmpty && !stopped {
                if !condition.wait(until: (ContinuousClock.now + Self.idleWait).date) && queued.isEmpty {
                    // Idle for a while: let the thread go; enqueue starts another when needed.
                    threads -= 1
                    condition.broadcast() // `join` may be waiting
                    condition.unlock()
                    return
                }
            }
            if stopped {
                threads -= 1
                condition.broadcast()
                condition.unlock()
                return
            }
            condition.unlock()

            yield()

            condition.lock()
            guard !stopped, let job = pop() else {
                condition.unlock()
                continue
            }
            running.insert(job)
            condition.unlock()

            work(job)

            condition.lock()
            running.remove(job)
            perStage[job.stage.rawValue] -= 1
            onLengthChange(queued.count + running.count)
            condition.broadcast()
            condition.unlock()
        }
    }

    /// Queued plus running jobs.
    var length: Int {
        condition.lock()
        defer { condition.unlock() }
        return queued.count + running.count
    }

    /// Queued plus running jobs of one stage.
    func length(of stage: IngestStage) -> Int {
        condition.lock()
        defer { condition.unlock() }
        return perStage[stage.rawValue]
    }

    /// Blocks until nothing is queued or running, or the timeout passes; true when idle.
    @discardableResult
    func waitUntilIdle(timeoutSeconds: Double = 600) -> Bool {
        let deadline = ContinuousClock.now + .seconds(double: timeoutSeconds)
        condition.lock()
        defer { condition.unlock() }
        while !(queued.isEmpty && running.isEmpty) {
            if !condition.wait(until: deadline.date) { return queued.isEmpty && running.isEmpty }
        }
        return true
    }

    /// After `stop`: waits until every ingest thread has ended (running builds finished), or
    /// until `deadline`; true when all have.
    @discardableResult
    func join(deadline: ContinuousClock.Instant) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while threads > 0 {
            guard ContinuousClock.now < deadline, condition.wait(until: deadline.date) || threads == 0 else {
                return threads == 0
            }
        }
        return true
    }

    /// Drops queued jobs; running ones finish. No job starts afterwards.
    func stop() {
        condition.lock()
        stopped = true
        heap.removeAll()
        for job in queued.keys { perStage[job.stage.rawValue] -= 1 }
        queued.removeAll()
        condition.broadcast()
        condition.unlock()
    }
}
