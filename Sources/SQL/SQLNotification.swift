/// A notification received on a `LISTEN`ing connection.
public struct SQLNotification: Sendable, Equatable {
    public let channel: String
    public let payload: String
}
