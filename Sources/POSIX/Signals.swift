#if canImport(Glibc)
import Glibc
#endif

/// Process signals: their numbers, blocking them in threads and taking them with `sigwait`.
public enum Signals {
    @inlinable public static var terminate: Int32 { SIGTERM }
    @inlinable public static var interrupt: Int32 { SIGINT }

    /// Blocks `signals` in the calling thread and in every thread it creates from now on.
    public static func block(_ signals: [Int32]) {
        var set = self.set(signals)
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// Waits until one of `signals` (blocked already) arrives and returns it.
    public static func wait(_ signals: [Int32]) -> Int32 {
        var set = self.set(signals)
        var received: Int32 = 0
        while sigwait(&set, &received) != 0 {}
        return received
    }

    /// Ignores SIGPIPE for the whole process: a write to a peer that is gone then fails with
    /// EPIPE instead of ending the process (sendfile(2) has no MSG_NOSIGNAL).
    public static func ignoreBrokenPipe() { signal(SIGPIPE, SIG_IGN) }

    /// Ignores SIGXFSZ for the whole process: a write past a file-size limit (ulimit -f) then
    /// fails with EFBIG instead of ending the process.
    public static func ignoreFileSizeLimit() { signal(SIGXFSZ, SIG_IGN) }

    private static func set(_ signals: [Int32]) -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in signals { sigaddset(&set, signal) }
        return set
    }
}
