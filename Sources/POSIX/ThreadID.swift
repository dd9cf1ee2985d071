#if canImport(Glibc)
import Glibc
#endif

/// A thread of the process (pthread_t): to tell whether code runs on a given thread, or to send
/// that thread a signal.
public struct ThreadID: Equatable, Sendable {
    let raw: pthread_t

    /// The calling thread.
    public static var current: ThreadID { ThreadID(raw: pthread_self()) }

    public static func == (a: ThreadID, b: ThreadID) -> Bool { pthread_equal(a.raw, b.raw) != 0 }

    /// Sends `signal` to this thread alone (pthread_kill).
    public func send(_ signal: Int32) { _ = pthread_kill(raw, signal) }
}
