import Foundation

/// Lets background builds wait while tiles are rendered for someone looking at a photo.
///
/// Request threads `enter` and `leave` around an on-demand render; an ingest thread calls
/// `waitForQuiet` before each build and starts once no render has run for a moment (or after
/// `maxWait`, so a steady stream of viewers never starves the ingest).
// @unchecked Sendable: `active` and `lastLeft` are guarded by `condition`, which `waitForQuiet` waits on.
final class OnDemandGate: @unchecked Sendable {
    private let condition = NSCondition()
    private var active = 0
    private var lastLeft = DispatchTime(uptimeNanoseconds: 0)
    private let quietNanoseconds: UInt64
    private let maxWaitSeconds: Double

    init(quietSeconds: Double = 0.15, maxWaitSeconds: Double = 2) {
        quietNanoseconds = UInt64(quietSeconds * 1e9)
        self.maxWaitSeconds = maxWaitSeconds
    }

    func enter() {
        condition.lock()
        active += 1
        condition.unlock()
    }

    func leave() {
        condition.lock()
        active -= 1
        lastLeft = .now()
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
        let deadline = Date().addingTimeInterval(maxWaitSeconds)
        condition.lock()
        defer { condition.unlock() }
        while Date() < deadline {
            if active == 0 {
                let quietSince = DispatchTime.now().uptimeNanoseconds &- lastLeft.uptimeNanoseconds
                if quietSince >= quietNanoseconds { return }
                _ = condition.wait(until: Date().addingTimeInterval(Double(quietNanoseconds - quietSince) / 1e9))
            } else {
                _ = condition.wait(until: deadline)
            }
        }
    }
}
