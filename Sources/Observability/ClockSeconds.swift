import POSIX

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
