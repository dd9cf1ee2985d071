/// Why a group shuts down.
public enum ShutdownReason: Sendable, CustomStringConvertible {
    /// SIGTERM or SIGINT.
    case signal(Int32)
    /// A service's work ended with an error.
    case failed(service: String, error: any Error)
    /// `ShutdownTrigger.fire` from the program itself (tests, embedding code).
    case requested

    public var description: String {
        switch self {
        case .signal(let signal): ShutdownSignals.name(signal)
        case .failed(let service, let error): "\(service) failed: \(error)"
        case .requested: "requested"
        }
    }
}
