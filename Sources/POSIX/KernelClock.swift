#if canImport(Glibc)
import Glibc
#endif

/// The kernel's clocks, read directly (vDSO, no system call). Inlined: the event loops and the
/// log read them for every request.
public enum KernelClock {
    /// CLOCK_BOOTTIME, the clock `ContinuousClock` reads on Linux (Swift's runtime,
    /// `swift_get_time`): seconds since the boot, counting time suspended.
    @inlinable @inline(__always)
    public static func bootSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_BOOTTIME, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// CLOCK_REALTIME, the wall clock, as seconds and milliseconds since 1970.
    @inlinable @inline(__always)
    public static func wallMilliseconds() -> (seconds: Int, milliseconds: Int) {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return (Int(time.tv_sec), Int(time.tv_nsec) / 1_000_000)
    }

    /// CLOCK_REALTIME in nanoseconds since 1970, as file modification times are given.
    @inlinable @inline(__always)
    public static func wallNanoseconds() -> Int {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int(time.tv_sec) * 1_000_000_000 + Int(time.tv_nsec)
    }

    /// The wall clock in whole seconds since 1970 (time(2)).
    @inlinable @inline(__always)
    public static func wallSeconds() -> Int { Int(time(nil)) }
}
