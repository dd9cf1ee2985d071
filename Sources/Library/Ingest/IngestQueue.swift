import Foundation

/// One pyramid to build: a photo in one version.
public struct IngestJob: Hashable, Sendable {
    public var photoID: Int
    public var version: String
    /// Width × height, so small photos are built first and show as ready soonest.
    public var pixels: Int
    /// When the job was queued; not part of its identity.
    public var queuedAt: DispatchTime

    public init(photoID: Int, version: String, pixels: Int, queuedAt: DispatchTime = .now()) {
        self.photoID = photoID
        self.version = version
        self.pixels = pixels
        self.queuedAt = queuedAt
    }

    public static func == (a: IngestJob, b: IngestJob) -> Bool { a.photoID == b.photoID && a.version == b.version }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(photoID)
        hasher.combine(version)
    }
}

/// Background pyramid builds, `concurrency` at a time, each job once, smallest photo first.
public final class IngestQueue: @unchecked Sendable {
    // Everything below is guarded by `condition`.
    private let condition = NSCondition()
    private var pending: [IngestJob] = []
    private var known: Set<IngestJob> = []
    private var running = 0
    private var stopped = false
    private var threads = 0

    private let concurrency: Int
    private let work: @Sendable (IngestJob) -> Void
    private let onLengthChange: @Sendable (Int) -> Void

    /// `work` builds one job; `onLengthChange` hears the count of queued and running jobs.
    public init(concurrency: Int, onLengthChange: @escaping @Sendable (Int) -> Void = { _ in },
                work: @escaping @Sendable (IngestJob) -> Void) {
        self.concurrency = max(1, concurrency)
        self.work = work
        self.onLengthChange = onLengthChange
    }

    /// Queues a job unless the same photo version is already queued, running or done.
    public func enqueue(_ job: IngestJob) {
        condition.lock()
        defer { condition.unlock() }
        guard !stopped, !known.contains(job) else { return }
        known.insert(job)
        pending.append(job)
        onLengthChange(pending.count + running)
        if threads < concurrency {
            threads += 1
            let thread = Thread { [self] in self.drain() }
            thread.name = "ingest"
            thread.start()
        }
        condition.broadcast()
    }

    private func drain() {
        while true {
            condition.lock()
            while pending.isEmpty && !stopped {
                if !condition.wait(until: Date().addingTimeInterval(30)) && pending.isEmpty {
                    // Idle for a while: let the thread go; enqueue starts another when needed.
                    threads -= 1
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
            let next = pending.indices.min { pending[$0].pixels < pending[$1].pixels }!
            let job = pending.remove(at: next)
            running += 1
            condition.unlock()

            work(job)

            condition.lock()
            running -= 1
            onLengthChange(pending.count + running)
            condition.broadcast()
            condition.unlock()
        }
    }

    /// Forgets that a job was done, so that enqueuing it again builds it again (a retry).
    public func forget(_ job: IngestJob) {
        condition.lock()
        known.remove(job)
        condition.unlock()
    }

    /// Queued plus running jobs.
    public var length: Int {
        condition.lock()
        defer { condition.unlock() }
        return pending.count + running
    }

    /// Blocks until nothing is queued or running, or the timeout passes; true when idle.
    @discardableResult
    public func waitUntilIdle(timeoutSeconds: Double = 600) -> Bool {
        let deadline = Date().addingTimeInterval(timeoutSeconds)
        condition.lock()
        defer { condition.unlock() }
        while !(pending.isEmpty && running == 0) {
            if !condition.wait(until: deadline) { return pending.isEmpty && running == 0 }
        }
        return true
    }

    /// Drops queued jobs; running ones finish. No job starts afterwards.
    public func stop() {
        condition.lock()
        stopped = true
        pending.removeAll()
        condition.broadcast()
        condition.unlock()
    }
}
