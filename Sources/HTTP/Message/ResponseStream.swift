/// The write side of a `.stream` body. Thread-safe; writes are queued to the connection's event loop.
public protocol ResponseStream: AnyObject, Sendable {
    /// Queues bytes for the client; false when the connection is already gone.
    @discardableResult
    func write(_ bytes: [UInt8]) -> Bool
    /// Ends the response and closes the connection.
    func close()
    /// Whether the client is gone or `close()` was called.
    var isClosed: Bool { get }
    /// Called once, on any thread, when the connection closes for whatever reason.
    func onClose(_ callback: @escaping @Sendable () -> Void)
    /// Calls `callback` once what was written so far has (nearly) all gone to the client, so a
    /// writer with much to send (a replay) sends it a page at a time, as fast as the client
    /// reads, instead of queuing all of it. Never called once the stream is closed.
    func whenDrained(_ callback: @escaping @Sendable () -> Void)
}

extension ResponseStream {
    /// A stream without backpressure of its own is always drained.
    public func whenDrained(_ callback: @escaping @Sendable () -> Void) {
        if !isClosed { callback() }
    }
}
