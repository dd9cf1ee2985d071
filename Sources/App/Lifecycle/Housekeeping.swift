import Foundation
import Synchronization

/// Removes what has had its time: expired uploads and photos in the trash past `trashDays`.
/// Once at start and then every minute, on a thread of its own (`atStart` chores only once,
/// first). Every replica sweeps; the
/// uploads' claims and the trash rows (deleted once) keep two from removing one thing twice.
final class Housekeeping: Service {
    let name = "housekeeping"
    private let chores: [@Sendable () -> Void]
    private let atStart: [@Sendable () -> Void]
    private let interval: Double
    private let stopped = Mutex(false)
    private let wake = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private let running = Mutex(false)

    init(intervalSeconds: Double = 60, atStart: [@Sendable () -> Void] = [], _ chores: [@Sendable () -> Void]) {
        self.chores = chores
        self.atStart = atStart
        self.interval = intervalSeconds
    }

    func start(fail: @escaping @Sendable (any Error) -> Void) throws {
        running.withLock { $0 = true }
        let thread = Thread { [self] in
            defer { finished.signal() }
            for chore in atStart where !stopped.withLock({ $0 }) { chore() }
            while !stopped.withLock({ $0 }) {
                for chore in chores { chore() }
                _ = wake.wait(timeout: .now() + interval)
            }
        }
        thread.name = "housekeeping"
        thread.start()
    }

    func shutDown(deadline: ContinuousClock.Instant) {
        stopped.withLock { $0 = true }
        wake.signal()
        if running.withLock({ $0 }) { _ = finished.wait(timeout: deadline.dispatchTime) }
    }
}
