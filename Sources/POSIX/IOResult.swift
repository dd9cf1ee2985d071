/// The outcome of a call on a non-blocking descriptor.
public enum IOResult<Value> {
    case done(Value)
    /// EAGAIN / EWOULDBLOCK: try again when the descriptor is ready.
    case wouldBlock
}

extension IOResult: Sendable where Value: Sendable {}

extension IOResult: Equatable where Value: Equatable {}
