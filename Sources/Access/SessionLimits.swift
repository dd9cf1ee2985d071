/// How long sessions last.
public struct SessionLimits: Sendable, Equatable {
    /// A session unused this long is over. Default 7 days.
    public var idleSeconds: Int
    /// A session is over this long after it began, however much it is used. Default 30 days.
    public var lifetimeSeconds: Int

    public init(idleSeconds: Int = 7 * 86_400, lifetimeSeconds: Int = 30 * 86_400) {
        self.idleSeconds = idleSeconds
        self.lifetimeSeconds = lifetimeSeconds
    }
}
