import Foundation
import Observability
import Synchronization

/// A kind of blocking work with threads of its own (catalog queries, comment writes, image
/// renders), so that a flood of one kind cannot starve the others.
public struct WorkLane: Hashable, Sendable, CustomStringConvertible {
    public let name: String
    public init(_ name: String) { self.name = name }
    /// Routes that name no lane (static files and the like).
    public static let general = WorkLane("general")
    public var description: String { name }
}

/// At most `limit` jobs of a lane sharing `key` run at once (renders of one photo, or of one
/// client); further ones wait in the queue without holding a thread.
public struct WorkCap: Hashable, Sendable {
    public var key: String
    public var limit: Int
    public init(key: String, limit: Int) {
        self.key = key
        self.limit = limit
    }
}

/// How busy one lane is: for `/readyz` and metrics.
public struct LaneLoad: Sendable, Equatable {
    public var lane: WorkLane
    public var threads: Int
    public var running: Int
    public var queued: Int
    /// How long the oldest queued job has waited, in seconds; 0 when none waits.
    public var oldestWaitSeconds: Double

    public init(lane: WorkLane, threads: Int, running: Int, queued: Int, oldestWaitSeconds: Double) {
        self.lane = lane
        self.threads = threads
        self.running = running
        self.queued = queued
        self.oldestWaitSeconds = oldestWaitSeconds
    }
}

/// Threads for work that may block (disk, SQLite, libvips), so no event loop ever waits on it,
/// in lanes that each have their own threads. Within a lane the queue is fair: jobs are kept
/// per group (the client's address) and taken from the groups in turn, so one client queuing a
/// thousand renders delays the others by a turn each, not by a thousand. Results go back to the
/// owning loop through `EventLoop.execute`.
final class WorkerPool: Sendable {
    private let lanes: [WorkLane: Lane]

    /// `lanes` maps each lane to its thread count; `general` is added with one thread if missing.
    init(lanes counts: [WorkLane: Int], name: String = "http-worker") {
        var counts = counts
        if counts[.general] == nil { counts[.general] = 1 }
        var lanes: [WorkLane: Lane] = [:]
        for (lane, threads) in counts { lanes[lane] = Lane(lane, threads: max(1, threads), name: "\(name)-\(lane.name)") }
        self.lanes = lanes
    }

    convenience init(threads count: Int, name: String = "http-worker") {
        self.init(lanes: [.general: count], name: name)
    }

    /// Queues `work` in the general lane.
    func submit(_ work: @escaping @Sendable () -> Void) {
        submit(lane: .general, group: "", caps: [], work)
    }

    /// Queues `work` in `lane` (the general lane if it has no threads of its own) for `group`,
    /// to start once every cap allows it.
    func submit(lane: WorkLane, group: String, caps: [WorkCap], _ work: @escaping @Sendable () -> Void) {
        (lanes[lane] ?? lanes[.general]!).submit(Job(group: group, caps: caps, queuedAt: monotonicSeconds(), work: work))
    }

    /// Lets queued work finish, then ends the threads; returns at once (`join` waits).
    func stop() { lanes.values.forEach { $0.stop() } }

    /// Waits until every thread has ended after `stop`, or until `deadline` (a handler stuck in a
    /// call that never returns cannot be ended); true when all have.
    @discardableResult
    func join(deadline: ContinuousClock.Instant) -> Bool {
        lanes.values.allSatisfy { $0.join(deadline: deadline) }
    }

    /// Every lane's load now, by name.
    var load: [LaneLoad] { lanes.values.map(\.load).sorted { $0.lane.name < $1.lane.name } }

    struct Job {
        var group: String
        var caps: [WorkCap]
        var queuedAt: Double
        var work: @Sendable () -> Void
    }

    // @unchecked Sendable: the queues and counters below are guarded by `condition`, which the threads wait on.
    final class Lane: @unchecked Sendable {
        let lane: WorkLane
        let threadCount: Int
        // Everything below is guarded by `condition`.
        private let condition = NSCondition()
        /// Queued jobs per group, oldest first.
        private var queues: [String: [Job]] = [:]
        /// Groups with queued jobs, in the order they take turns.
        private var turns: [String] = []
        private var nextTurn = 0
        /// Jobs running per cap key.
        private var capped: [String: Int] = [:]
        private var running = 0
        private var queued = 0
        private var stopped = false
        /// Signalled by each thread as it ends.
        private let exited = DispatchSemaphore(value: 0)
        private let joined = Mutex(0)

        init(_ lane: WorkLane, threads: Int, name: String) {
            self.lane = lane
            self.threadCount = threads
            for index in 0..<threads {
                let thread = Thread { [self] in
                    self.run()
                    self.exited.signal()
                }
                thread.name = "\(name)-\(index)"
                thread.stackSize = 1 << 20
                thread.start()
            }
        }

        func submit(_ job: Job) {
            condition.lock()
            if queues[job.group] == nil || queues[job.group]!.isEmpty { turns.append(job.group) }
            queues[job.group, default: []].append(job)
            queued += 1
            condition.signal()
            condition.unlock()
        }

        func stop() {
            condition.lock()
            stopped = true
            condition.broadcast()
            condition.unlock()
        }

        func join(deadline: ContinuousClock.Instant) -> Bool {
            while joined.withLock({ $0 }) < threadCount {
                guard exited.wait(timeout: deadline.dispatchTime) == .success else { return false }
                joined.withLock { $0 += 1 }
            }
            return true
        }

        var load: LaneLoad {
            condition.lock()
            defer { condition.unlock() }
            let oldest = queues.values.compactMap(\.first?.queuedAt).min()
            return LaneLoad(lane: lane, threads: threadCount, running: running, queued: queued,
                            oldestWaitSeconds: oldest.map { max(0, monotonicSeconds() - $0) } ?? 0)
        }

        /// The next job whose caps allow it, taking the groups in turn; nil when none may start.
        /// Called with the lock held.
        private func take() -> Job? {
            guard !turns.isEmpty else { return nil }
            for step in 0..<turns.count {
                let index = (nextTurn + step) % turns.count
                let group = turns[index]
                guard let job = queues[group]?.first else { continue }
                guard job.caps.allSatisfy({ capped[$0.key, default: 0] < $0.limit }) else { continue }
                queues[group]!.removeFirst()
                queued -= 1
                if queues[group]!.isEmpty {
                    queues[group] = nil
                    turns.remove(at: index)
                    nextTurn = turns.isEmpty ? 0 : index % turns.count
                } else {
                    nextTurn = (index + 1) % turns.count
                }
                for cap in job.caps { capped[cap.key, default: 0] += 1 }
                return job
            }
            return nil
        }

        private func run() {
            condition.lock()
            while true {
                if let job = take() {
                    running += 1
                    condition.unlock()
                    job.work()
                    condition.lock()
                    running -= 1
                    for cap in job.caps {
                        let left = capped[cap.key, default: 1] - 1
                        capped[cap.key] = left > 0 ? left : nil
                    }
                    // A cap freed may let a job start that another thread passed over.
                    if !job.caps.isEmpty { condition.broadcast() }
                    continue
                }
                if stopped && queued == 0 { break }
                condition.wait()
            }
            condition.unlock()
        }
    }
}
