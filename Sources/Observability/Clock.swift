import Dispatch
import struct Foundation.Date
import POSIX

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

/// `ContinuousClock` read as seconds, a `Double`, for the paths that compare and add deadlines on
/// every request (the event loops, the access log, the rate limiter): a `Double` does either in
/// one instruction, an `Instant` in 128-bit arithmetic, and turning an `Instant` into seconds costs
/// a 128-bit conversion per reading. So this reads the clock `ContinuousClock` reads on Linux,
/// CLOCK_BOOTTIME (Swift's runtime, `swift_get_time`), directly: the same clock, read as cheaply as
/// before. `instant(_:)` turns such seconds into a `ContinuousClock.Instant`.
public enum ClockSeconds {
    /// Seconds on `ContinuousClock`'s clock since an arbitrary fixed moment (the boot).
    @inlinable
    public static func now() -> Double { KernelClock.bootSeconds() }

    /// The instant `seconds` (a value of `now()`) stands for.
    public static func instant(_ seconds: Double) -> ContinuousClock.Instant {
        let instant = ContinuousClock.now
        let difference = seconds - now()
        return difference >= 0 ? instant + .seconds(double: difference) : instant - .seconds(double: -difference)
    }
}
