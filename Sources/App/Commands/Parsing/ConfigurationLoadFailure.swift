/// A settings file, variable or value that cannot be used: the process exits 78.
public struct ConfigurationLoadFailure: Error, CustomStringConvertible {
    public var error: any Error
    public var description: String { "configuration: \(error)" }
}
