/// Where a streamed request body goes, piece by piece, as it arrives: an upload written to a
/// file, never held whole in memory.
///
/// The server calls it from worker threads in the route's lane, one call at a time and in
/// order: `write` for each piece, then exactly one of `finish` (the whole body arrived) or
/// `abandon` (the client went away, timed out, or the server is stopping). While a piece is being
/// written the connection reads at most one more piece ahead, so memory stays at two pieces per
/// upload however large the body, and a slow disk slows the client (TCP backpressure) instead
/// of filling memory.
public protocol RequestBodySink: AnyObject, Sendable {
    /// Takes the next piece of the body. Throwing stops the body: nothing more is read, the
    /// error is the answer (problem+json, as a handler's), and the connection closes after it.
    func write(_ bytes: [UInt8]) throws
    /// The whole body has been written: the answer to the request.
    func finish() throws -> HTTPResponse
    /// The body ended early and no answer will be sent; what was written may be kept.
    func abandon()
}

/// Opens a streamed body for a request: runs on a worker thread of the route's lane, so it may
/// touch the disk or the database. Throwing answers as a handler's error does.
public typealias BodyOpener = @Sendable (HTTPRequest) throws -> BodyStart
