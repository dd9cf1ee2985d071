import POSIX

/// SIGTERM and SIGINT, blocked in every thread and taken with `sigwait`, so none is ever lost.
///
/// The kernel discards a signal whose disposition is "ignore" when the main thread does not block
/// it, and a container's PID 1 also drops default-action ones; ignoring SIGTERM so that a dispatch
/// source can take it leaves a window for both, and the source also needs a free dispatch thread
/// to run its handler. Blocked signals instead stay pending until `wait()` takes them.
public enum ShutdownSignals {
    /// The signals that ask the server to stop.
    public static let stopping: [Int32] = [Signals.terminate, Signals.interrupt]

    /// Blocks the signals in the calling thread and in every thread it creates from now on.
    /// Call it before the first thread starts, or a thread that does not block them may take one
    /// and end the process without a graceful shutdown.
    public static func block() {
        Signals.block(stopping)
    }

    /// Waits until one of the signals arrives and returns it; they must be blocked already.
    public static func wait() -> Int32 {
        Signals.wait(stopping)
    }

    /// `SIGTERM` for 15, for the log.
    public static func name(_ signal: Int32) -> String {
        switch signal {
        case Signals.terminate: "SIGTERM"
        case Signals.interrupt: "SIGINT"
        default: "signal \(signal)"
        }
    }
}
