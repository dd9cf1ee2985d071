import Dispatch
import POSIX
import Synchronization

/// What a `ServiceGroup` waits for between start and shutdown: the first of a stopping signal,
/// a failed service, or a request; later ones are ignored.
///
/// With signals, the waiting thread sits in `sigwait` (the signals are blocked in every thread,
/// so none is lost, `ShutdownSignals`); a failure or request wakes it by directing SIGTERM at
/// that thread alone, the same path an operator's signal takes. Without, it waits on a semaphore.
public final class ShutdownTrigger: Sendable {
    private let reason = Mutex<ShutdownReason?>(nil)
    private let fired = DispatchSemaphore(value: 0)
    /// The thread that waits in `sigwait`, when signals are taken.
    private let signalWaiter: ThreadID?

    /// A trigger fired only by `fire` (tests, embedding code).
    public init() { signalWaiter = nil }

    private init(signalWaiter: ThreadID) { self.signalWaiter = signalWaiter }

    /// A trigger also fired by SIGTERM and SIGINT. Blocks them in the calling thread (and in the
    /// threads it starts from now on); `wait` must be called on this same thread.
    public static func signals() -> ShutdownTrigger {
        ShutdownSignals.block()
        return ShutdownTrigger(signalWaiter: .current)
    }

    /// Shuts the group down for `reason`, unless something already has.
    public func fire(_ reason: ShutdownReason) {
        let first = self.reason.withLock { current -> Bool in
            guard current == nil else { return false }
            current = reason
            return true
        }
        guard first else { return }
        if let signalWaiter {
            signalWaiter.send(Signals.terminate)
        } else {
            fired.signal()
        }
    }

    /// Blocks until the trigger fires; returns the first reason.
    public func wait() -> ShutdownReason {
        if signalWaiter != nil {
            let received = ShutdownSignals.wait()
            return reason.withLock { current in
                if let current { return current }
                current = .signal(received)
                return .signal(received)
            }
        }
        fired.wait()
        return reason.withLock { $0 ?? .requested }
    }
}
