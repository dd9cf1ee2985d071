/// A count that drains at a steady rate: what both the guessing throttle (`FailureThrottle`,
/// failures counted) and the comment limit (comments counted) keep per key. It holds no rate of
/// its own, so a table of them costs two numbers a key; its owner passes the rate and keeps it
/// under its lock.
package struct LeakyBucket: Sendable {
    private var counted: Double
    private var updated: Double

    /// An empty bucket: one that behaves exactly as an absent one.
    package init(at now: Double) {
        counted = 0
        updated = now
    }

    /// The level at `now`, drained at `perSecond` since it was last counted; never below zero,
    /// and a clock that went back drains nothing.
    package func level(at now: Double, drainingPerSecond perSecond: Double) -> Double {
        max(0, counted - max(0, now - updated) * perSecond)
    }

    /// Counts one more at `now`.
    package mutating func count(at now: Double, drainingPerSecond perSecond: Double) {
        counted = level(at: now, drainingPerSecond: perSecond) + 1
        updated = now
    }

    /// A wait in seconds as the `Retry-After` value: whole seconds, rounded up, at least one.
    package static func retryAfterSeconds(waiting wait: Double) -> Int {
        // The epsilon keeps float noise (11.9999…/12.0000…1) from adding a whole second.
        max(1, Int((wait - 1e-6).rounded(.up)))
    }
}
