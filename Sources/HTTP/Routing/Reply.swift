/// What a handler gives back: a response now, or work for the worker pool that yields one.
public enum Reply: Sendable {
    case response(HTTPResponse)
    /// A cached answer with its head fields encoded once: a plain GET of it is sent without
    /// building a response at all.
    case encoded(EncodedResponse)
    /// Run on the worker pool, in the route's lane; lets an inline handler answer a cache hit at
    /// once and offload a miss.
    case offload(@Sendable () throws -> HTTPResponse)
    /// Like `offload`, started only once every cap allows it (renders per photo, per client);
    /// until then it waits in the lane's queue without holding a thread.
    case offloadCapped([WorkCap], @Sendable () throws -> HTTPResponse)
    /// Run as the order says: in its lane, within the lane's budget, cancelled with its client.
    case order(WorkOrder)
}

/// A handler that answers with a response.
public typealias Handler = @Sendable (HTTPRequest) throws -> HTTPResponse
