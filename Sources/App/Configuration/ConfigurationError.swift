/// A setting that could not be used, named so the person can fix it.
public struct ConfigurationError: Error, CustomStringConvertible, Equatable {
    public var description: String
    public init(_ description: String) { self.description = description }
}
