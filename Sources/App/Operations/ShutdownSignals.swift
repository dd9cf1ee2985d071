#if canImport(Glibc)
import Glibc
#endif

/// SIGTERM and SIGINT, blocked in every thread and taken with `sigwait`, so none is ever lost.
///
/// A signal whose disposition is "ignore" or "default" is discarded on arrival when the main
/// thread does not block it, and a container's PID 1 drops default-action signals outright. A
/// handler armed some time after start (as a dispatch signal source is) therefore misses a
/// `docker stop` that comes early. Blocked signals instead stay pending until `wait()` takes them.
public enum ShutdownSignals {
    /// The signals that ask the server to stop.
    public static let stopping: [Int32] = [SIGTERM, SIGINT]

    private static var set: sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in stopping { sigaddset(&set, signal) }
        return set
    }

    /// Blocks the signals in the calling thread and in every thread it creates from now on.
    /// Call it before the first thread starts, or a thread that does not block them may take one
    /// and end the process without a graceful shutdown.
    public static func block() {
        var set = self.set
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// Waits until one of the signals arrives and returns it; they must be blocked already.
    public static func wait() -> Int32 {
        var set = self.set
        var received: Int32 = 0
        while sigwait(&set, &received) != 0 {}
        return received
    }

    /// `SIGTERM` for 15, for the log.
    public static func name(_ signal: Int32) -> String {
        switch signal {
        case SIGTERM: "SIGTERM"
        case SIGINT: "SIGINT"
        default: "signal \(signal)"
        }
    }
}
