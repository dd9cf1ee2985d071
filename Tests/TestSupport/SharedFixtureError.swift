/// Why a shared fixture could not be made or copied (see `SharedFixture`).
public struct SharedFixtureError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
