import Synchronization

/// One piece of offloaded work's link to its client: cancelled when the connection that asked
/// for it closes (the client went away), so queued work is dropped at once and running work
/// that can stop (a render) stops.
public final class WorkTicket: Sendable {
    private struct State {
        var cancelled = false
        var handlers: [@Sendable () -> Void] = []
    }

    private let state = Mutex(State())

    public init() {}

    /// Whether nobody waits for the answer any more.
    public var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// Runs `handler` once when the ticket is cancelled, or at once if it already is. Handlers run
    /// on the cancelling thread (often an event loop): they must only signal, never block.
    public func onCancel(_ handler: @escaping @Sendable () -> Void) {
        let now = state.withLock { state -> Bool in
            if state.cancelled { return true }
            state.handlers.append(handler)
            return false
        }
        if now { handler() }
    }

    /// Cancels the ticket and runs its handlers, once.
    public func cancel() {
        let handlers = state.withLock { state -> [@Sendable () -> Void] in
            guard !state.cancelled else { return [] }
            state.cancelled = true
            defer { state.handlers = [] }
            return state.handlers
        }
        for handler in handlers { handler() }
    }
}
