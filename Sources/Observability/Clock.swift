import Dispatch
import struct Foundation.Date

// Durations and deadlines are `ContinuousClock` instants and `Duration`s throughout; wall-clock
// `Date`s only where a wall time is meant (log timestamps, HTTP dates, dates taken). These are the
// conversions at the edges that take nothing else.

extension Duration {
    /// A number of seconds as configuration spells it (`shutdownGraceSeconds: 2.5`); negative is zero.
    public static func seconds(double seconds: Double) -> Duration {
        guard seconds.isFinite else { return seconds > 0 ? .seconds(Int64(Int32.max)) : .zero }
        return .nanoseconds(Int64((max(0, seconds) * 1e9).rounded()))
    }

    /// The duration in seconds, for metrics and arithmetic with configured seconds.
    public var inSeconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) * 1e-18
    }

    /// `1.5` for one and a half seconds, to the millisecond, for the log.
    public var loggedSeconds: String {
        let (seconds, attoseconds) = components
        let milliseconds = attoseconds / 1_000_000_000_000_000
        if milliseconds == 0 { return String(seconds) }
        var fraction = String(milliseconds)
        while fraction.count < 3 { fraction = "0" + fraction }
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return "\(seconds).\(fraction)"
    }
}

extension ContinuousClock.Instant {
    /// The same moment as a `DispatchTime`, for Dispatch's waits (semaphores), which take only that.
    public var dispatchTime: DispatchTime {
        let left = ContinuousClock.now.duration(to: self)
        guard left > .zero else { return .now() }
        let (seconds, attoseconds) = left.components
        guard seconds < Int64(Int32.max) else { return .distantFuture }
        return .now() + .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
    }

    /// The same moment as a wall-clock `Date`, for `NSCondition.wait(until:)`, which takes only that.
    /// Read afresh at each wait, so a wall clock set meanwhile moves it with the clock.
    public var date: Date {
        Date(timeIntervalSinceNow: ContinuousClock.now.duration(to: self).inSeconds)
    }
}
