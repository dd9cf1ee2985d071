/// The command line failed before the command could run: help was asked for, or a usage error.
public struct HelpCommand: Sendable, Equatable {
    public var text: String
}
