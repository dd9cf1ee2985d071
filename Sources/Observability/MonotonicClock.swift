/// Where code that acts on elapsed time reads it: the machine's monotonic clock in the server,
/// a `ManualClock` in tests, which move time instead of sleeping until it has passed.
public protocol MonotonicClock: Sendable {
    /// Seconds since an arbitrary fixed moment; never goes back.
    func now() -> Double
}
