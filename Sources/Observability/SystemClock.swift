/// `ContinuousClock`'s clock, read as seconds (`ClockSeconds.now()`).
public struct SystemClock: MonotonicClock {
    public init() {}
    @inlinable public func now() -> Double { ClockSeconds.now() }
}
