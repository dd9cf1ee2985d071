import Foundation
import Observability
import Synchronization

/// Threads for work that may block (disk, SQLite, libvips), so no event loop ever waits on it,
/// in lanes that each have their own threads. Within a lane the queue is fair: jobs are kept
/// per group (the client's address) and taken from the groups in turn, so one client queuing a
/// thousand renders delays the others by a turn each, not by a thousand. Results go back to the
/// owning loop through `EventLoop.execute`.
final class WorkerPool: Sendable {
    private let lanes: [WorkLane: Lane]

    /// `lanes` maps each lane to its thread count; `general` is added with one thread if missing.
    /// `budgets` limits what a lane takes on (none by default).
    init(lanes counts: [WorkLane: Int], budgets: [WorkLane: LaneBudget] = [:], name: String = "http-worker") {
        var counts = counts
        if counts[.general] == nil { counts[.general] = 1 }
        var lanes: [WorkLane: Lane] = [:]
        for (lane, threads) in counts {
            lanes[lane] = Lane(lane, threads: max(1, threads), budget: budgets[lane] ?? LaneBudget(), name: "\(name)-\(lane.name)")
        }
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
        _ = submit(lane: lane, group: group, caps: caps, cost: 0, ticket: nil, work)
    }

    /// Queues `work` as above, within the lane's budget: nil once queued, or why it was refused
    /// (then `work` never runs). Cancelling `ticket` while the job waits drops it at once.
    /// `expired` runs instead of `work` when the job waited past the lane's `maxWaitSeconds`.
    func submit(lane: WorkLane, group: String, caps: [WorkCap], cost: Int, ticket: WorkTicket?,
                expired: (@Sendable (WorkRefusal) -> Void)? = nil, _ work: @escaping @Sendable () -> Void) -> WorkRefusal? {
        let target = lanes[lane] ?? lanes[.general]!
        return target.submit(Job(group: group, caps: caps, cost: max(0, cost), queuedAt: ClockSeconds.now(), ticket: ticket,
                                 expired: expired, work: work))
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
        var cost: Int
        var queuedAt: Double
        var ticket: WorkTicket?
        var expired: (@Sendable (WorkRefusal) -> Void)?
        var work: @Sendable () -> Void
    }

    // @unchecked Sendable: the queues and counters below are guarded by `condition`, which the threads wait on.
    final class Lane: @unchecked Sendable {
        let lane: WorkLane
        let threadCount: Int
        let budget: LaneBudget
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
        private var costInFlight = 0
        /// When a job last started; a lane with work waiting and no start for long is stalled.
        private var lastStartedAt = ClockSeconds.now()
        /// How long a job takes, smoothed: for the `Retry-After` of a refusal.
        private var averageJobSeconds = 0.0
        private var refusedForClient = 0
        private var refusedForLane = 0
        private var withdrawn = 0
        private var expired = 0
        /// Jobs found past their wait while the lock was held, answered once it is let go.
        private var overdue: [Job] = []
        /// Signalled by each thread as it ends.
        private let exited = DispatchSemaphore(value: 0)
        private let joined = Mutex(0)

        init(_ lane: WorkLane, threads: Int, budget: LaneBudget, name: String) {
            self.lane = lane
            self.threadCount = threads
            self.budget = budget
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

        func submit(_ job: Job) -> WorkRefusal? {
            condition.lock()
            if let refusal = refusal(for: job) {
                condition.unlock()
                return refusal
            }
            if queues[job.group] == nil || queues[job.group]!.isEmpty { turns.append(job.group) }
            queues[job.group, default: []].append(job)
            queued += 1
            condition.signal()
            condition.unlock()
            // Registered after the lock is let go: a ticket already cancelled runs this at once.
            if let ticket = job.ticket { ticket.onCancel { [self] in withdraw(ticket, group: job.group) } }
            return nil
        }

        /// Why `job` cannot be queued, if the budget says so. Called with the lock held.
        private func refusal(for job: Job) -> WorkRefusal? {
            if let most = budget.maxQueuedPerClient, (queues[job.group]?.count ?? 0) >= most {
                refusedForClient += 1
                return WorkRefusal(status: .tooManyRequests,
                                   detail: "You have \(most) requests of this kind waiting already; wait for their answers first.",
                                   retryAfterSeconds: retryAfter(waiting: most))
            }
            if let most = budget.maxQueued, queued >= most {
                refusedForLane += 1
                return WorkRefusal(status: .serviceUnavailable,
                                   detail: "The server has \(most) requests of this kind waiting; try again soon.",
                                   retryAfterSeconds: retryAfter(waiting: most))
            }
            return nil
        }

        private static func spell(_ seconds: Double) -> String {
            seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
        }

        /// About how long `waiting` jobs take on this lane's threads, in whole seconds, 1 to 60.
        private func retryAfter(waiting: Int) -> Int {
            let seconds = averageJobSeconds * Double(waiting) / Double(threadCount)
            return min(60, max(1, Int(seconds.rounded(.up))))
        }

        /// Drops a queued job whose client has gone; nothing when it has started already.
        private func withdraw(_ ticket: WorkTicket, group: String) {
            condition.lock()
            defer { condition.unlock() }
            guard let index = queues[group]?.firstIndex(where: { $0.ticket === ticket }) else { return }
            queues[group]!.remove(at: index)
            queued -= 1
            withdrawn += 1
            if queues[group]!.isEmpty {
                queues[group] = nil
                if let turn = turns.firstIndex(of: group) {
                    turns.remove(at: turn)
                    if turn < nextTurn { nextTurn -= 1 }
                    if nextTurn >= turns.count { nextTurn = 0 }
                }
            }
            // A job that waited for the budget or a cap behind this one may start now.
            condition.broadcast()
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
            let now = ClockSeconds.now()
            return LaneLoad(lane: lane, threads: threadCount, running: running, queued: queued,
                            oldestWaitSeconds: oldest.map { max(0, now - $0) } ?? 0,
                            stalledSeconds: oldest.map { max(0, now - max($0, lastStartedAt)) } ?? 0,
                            costInFlight: costInFlight, maxCostInFlight: budget.maxCostInFlight,
                            refusedForClient: refusedForClient, refusedForLane: refusedForLane, withdrawn: withdrawn,
                            expired: expired)
        }

        /// The next job whose caps allow it, taking the groups in turn; nil when none may start.
        /// Called with the lock held.
        private func take() -> Job? {
            guard !turns.isEmpty else { return nil }
            for step in 0..<turns.count {
                let index = (nextTurn + step) % turns.count
                let group = turns[index]
                // Jobs past their wait are set aside to be answered 503 (`overdue`), not started.
                if let most = budget.maxWaitSeconds {
                    let now = ClockSeconds.now()
                    while let first = queues[group]?.first, now - first.queuedAt > most {
                        overdue.append(queues[group]!.removeFirst())
                        queued -= 1
                        expired += 1
                    }
                    if queues[group]?.isEmpty == true {
                        queues[group] = nil
                        turns.remove(at: index)
                        nextTurn = turns.isEmpty ? 0 : index % turns.count
                        return take()
                    }
                }
                guard let job = queues[group]?.first else { continue }
                guard job.caps.allSatisfy({ capped[$0.key, default: 0] < $0.limit }) else { continue }
                // Over the budget, the turn waits here until enough running work ends: passing
                // over a large job for small ones could keep it waiting for ever.
                if let most = budget.maxCostInFlight, running > 0, costInFlight + job.cost > most { return nil }
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
                costInFlight += job.cost
                lastStartedAt = ClockSeconds.now()
                return job
            }
            return nil
        }

        private func run() {
            condition.lock()
            while true {
                let job = take()
                if !overdue.isEmpty {
                    let late = overdue
                    overdue.removeAll()
                    let refusal = WorkRefusal(status: .serviceUnavailable,
                                              detail: "The request waited longer than \(Self.spell(budget.maxWaitSeconds ?? 0)) s for its turn; try again later.",
                                              retryAfterSeconds: retryAfter(waiting: threadCount))
                    condition.unlock()
                    for job in late { job.expired?(refusal) }
                    condition.lock()
                }
                if let job {
                    running += 1
                    condition.unlock()
                    let started = ClockSeconds.now()
                    job.work()
                    let took = ClockSeconds.now() - started
                    condition.lock()
                    running -= 1
                    costInFlight -= job.cost
                    averageJobSeconds = averageJobSeconds == 0 ? took : averageJobSeconds * 0.8 + took * 0.2
                    for cap in job.caps {
                        let left = capped[cap.key, default: 1] - 1
                        capped[cap.key] = left > 0 ? left : nil
                    }
                    // A cap or budget freed may let a job start that another thread passed over.
                    if !job.caps.isEmpty || job.cost > 0 { condition.broadcast() }
                    continue
                }
                if stopped && queued == 0 { break }
                condition.wait()
            }
            condition.unlock()
        }
    }
}
