/// An error already written to the log by the command; the process exits 1.
public struct CommandFailure: Error, CustomStringConvertible {
    public var error: any Error
    public var description: String { "\(error)" }
}
