import Synchronization

/// Where code that acts on elapsed time reads it: the machine's monotonic clock in the server,
/// a `ManualClock` in tests, which move time instead of sleeping until it has passed.
public protocol MonotonicClock: Sendable {
    /// Seconds since an arbitrary fixed moment; never goes back.
    func now() -> Double
}

/// `ContinuousClock`'s clock, read as seconds (`ClockSeconds.now()`).
public struct SystemClock: MonotonicClock {
    public init() {}
    @inlinable public func now() -> Double { ClockSeconds.now() }
}

/// A clock that stands still until it is told to move, as Hummingbird's `MockClock`: a test
/// asks for "a second later" and gets it at once.
public final class ManualClock: MonotonicClock {
    private let seconds: Mutex<Double>

    public init(seconds: Double = 1_000) { self.seconds = Mutex(seconds) }

    public func now() -> Double { seconds.withLock { $0 } }

    /// Moves the clock forward by `seconds` (never back).
    public func advance(by seconds: Double) {
        self.seconds.withLock { $0 += max(0, seconds) }
    }
}
