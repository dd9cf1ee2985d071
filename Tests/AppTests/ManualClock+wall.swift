import Observability

extension ManualClock {
    /// The clock read as wall-clock unix seconds, for what the application dates (sessions,
    /// links' and uploads' expiry): a fixture starts it at a plausible date and moves it as one.
    var wall: Int { Int(now()) }
}
