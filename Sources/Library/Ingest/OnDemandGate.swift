import Foundation
import Observability

/// Lets background builds wait while tiles are rendered for someone looking at a photo.
///
/// Request threads `enter` and `leave` around an on-demand render; an ingest thread calls
/// `waitForQuiet` before each build and starts once no render has run for a moment (or after
/// `maxWait`, so a steady stream of viewers never starves the ingest).
// @unchecked Sendable: `active` and `lastLeft` are guarded by `condition`, which `waitForQuiet` waits on.
// It stays unchecked because a Mutex cannot be waited on: `waitForQuiet` sleeps on `condition` until `leave` or a deadline.
final class OnDemandGate: @unchecked Sendable {
    private let condition = NSCondition()
    private var active = 0
    /// When the last render left; nil before the first.
    private var lastLeft: ContinuousClock.Instant?
    private let quiet: Duration
    private let maxWait: Duration

    init(quietSeconds: Double = 0.15, maxWaitSeconds: Double = 2) {
        quiet = .seconds(double: quietSeconds)
        maxWait = .seconds(double: maxWaitSeconds)
    }

    func enter() {
        condition.lock()
        active += 1
        condition.unlock()
    }

    func leave() {
        condition.lock()
        active -= 1
        lastLeft = .now
        condition.broadcast()
        condition.unlock()
    }

    /// Renders in flight now.
    var inFlight: Int {
        condition.lock()
        defer { condition.unlock() }
        return active
    }

    func waitForQuiet() {
        let deadline = ContinuousClock.now + maxWait
        condition.lock()
        defer { condition.unlock() }
        while ContinuousClock.now < deadline {
            if active == 0 {
                guard let lastLeft else { return }
                let quietUntil = lastLeft + quiet
                if ContinuousClock.now >= quietUntil { return }
                _ = condition.wait(until: quietUntil.date)
            } else {
                _ = condition.wait(until: deadline.date)
            }
        }
    }
}
