/// The database named by the settings cannot be used; the text names the server and says why.
public struct DatabaseStartupError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
