import Synchronization

/// The `ResponseStream` of one `.stream` response. Writes from any thread are queued under a
/// lock and the owning event loop is woken to send them.
final class StreamChannel: ResponseStream, Sendable {
    private struct State {
        var pending: [[UInt8]] = []
        var closed = false
        var closeRequested = false
        var scheduled = false
        var callbacks: [@Sendable () -> Void] = []
        var drainWaiters: [@Sendable () -> Void] = []
    }

    private let state = Mutex(State())
    /// Asks the loop to call `take()`; set once by the connection.
    private let schedule: @Sendable () -> Void

    init(schedule: @escaping @Sendable () -> Void) {
        self.schedule = schedule
    }

    @discardableResult
    func write(_ bytes: [UInt8]) -> Bool {
        let (accepted, wake) = state.withLock { state -> (Bool, Bool) in
            if state.closed || state.closeRequested { return (false, false) }
            state.pending.append(bytes)
            let wake = !state.scheduled
            state.scheduled = true
            return (true, wake)
        }
        if wake { schedule() }
        return accepted
    }

    func close() {
        let wake = state.withLock { state -> Bool in
            if state.closed || state.closeRequested { return false }
            state.closeRequested = true
            let wake = !state.scheduled
            state.scheduled = true
            return wake
        }
        if wake { schedule() }
    }

    var isClosed: Bool { state.withLock { $0.closed || $0.closeRequested } }

    func onClose(_ callback: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { state -> Bool in
            if state.closed { return true }
            state.callbacks.append(callback)
            return false
        }
        if runNow { callback() }
    }

    func whenDrained(_ callback: @escaping @Sendable () -> Void) {
        let wake = state.withLock { state -> Bool? in
            if state.closed { return nil }
            state.drainWaiters.append(callback)
            let wake = !state.scheduled
            state.scheduled = true
            return wake
        }
        // The loop looks at its queue when it next takes this stream's writes.
        if wake == true { schedule() }
    }

    /// Loop side: the connection's queue is low; runs the writers waiting for that.
    func runDrainWaiters() {
        let waiters = state.withLock { state -> [@Sendable () -> Void] in
            if state.closed || state.drainWaiters.isEmpty { return [] }
            defer { state.drainWaiters.removeAll() }
            return state.drainWaiters
        }
        waiters.forEach { $0() }
    }

    /// Loop side: the queued writes and whether the application closed the stream.
    func take() -> (chunks: [[UInt8]], closeRequested: Bool) {
        state.withLock { state in
            let chunks = state.pending
            state.pending.removeAll()
            state.scheduled = false
            return (chunks, state.closeRequested)
        }
    }

    /// Loop side: the connection is gone; runs the `onClose` callbacks once.
    func markClosed() {
        let callbacks = state.withLock { state -> [@Sendable () -> Void] in
            if state.closed { return [] }
            state.closed = true
            state.pending.removeAll()
            state.drainWaiters.removeAll()
            let callbacks = state.callbacks
            state.callbacks.removeAll()
            return callbacks
        }
        callbacks.forEach { $0() }
    }
}
