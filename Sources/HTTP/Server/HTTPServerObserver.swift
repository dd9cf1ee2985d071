/// Told about connections and finished requests; the application turns these into metrics.
public protocol HTTPServerObserver: Sendable {
    func connectionOpened()
    func connectionClosed()
    func requestCompleted(_ request: CompletedRequest)
    /// The observer one event loop reports to, called once per loop when the server starts: an
    /// observer may hand each loop one of its own, so that loops running on different cores do
    /// not update the same memory for every request. By default, this observer itself.
    func forEventLoop() -> any HTTPServerObserver
}

extension HTTPServerObserver {
    public func forEventLoop() -> any HTTPServerObserver { self }
}
