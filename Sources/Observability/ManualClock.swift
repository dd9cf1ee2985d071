import Synchronization

/// A clock that stands still until it is told to move: a test asks for "a second later" and
/// gets it at once.
public final class ManualClock: MonotonicClock {
    private let seconds: Mutex<Double>

    public init(seconds: Double = 1_000) { self.seconds = Mutex(seconds) }

    public func now() -> Double { seconds.withLock { $0 } }

    /// Moves the clock forward by `seconds` (never back).
    public func advance(by seconds: Double) {
        self.seconds.withLock { $0 += max(0, seconds) }
    }
}
