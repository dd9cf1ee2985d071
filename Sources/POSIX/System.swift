#if canImport(Glibc)
import Glibc
#endif

/// Facts about the machine and the process the program runs in.
public enum System {
    /// The process's id, for names of scratch files that another process must not pick.
    public static var processID: Int32 { getpid() }

    /// Whether the descriptor (0 standard input, 1 standard output) is a terminal (isatty).
    public static func isTerminal(_ descriptor: Int32) -> Bool { isatty(descriptor) == 1 }

    /// Writes out what every C output stream (stdout, stderr…) still holds (fflush(NULL)).
    public static func flushOutputStreams() { _ = fflush(nil) }

    /// Ends the process with `status`, after the C library's exit handlers and a flush of its
    /// output streams (exit).
    public static func exit(_ status: Int32) -> Never { Glibc.exit(status) }

    /// Online processor cores.
    public static var coreCount: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

    /// The size of a memory page in bytes.
    public static var pageSize: Int { Int(sysconf(Int32(_SC_PAGESIZE))) }

    /// Clock ticks per second, the unit of /proc's process times.
    public static var clockTicksPerSecond: Int { Int(sysconf(Int32(_SC_CLK_TCK))) }

    /// The processor time the process has used, in user and system mode, in seconds
    /// (getrusage); nil when the kernel does not say.
    public static func processorSeconds() -> (user: Double, system: Double)? {
        var usage = rusage()
        guard getrusage(RUSAGE_SELF.rawValue, &usage) == 0 else { return nil }
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return (seconds(usage.ru_utime), seconds(usage.ru_stime))
    }

    /// How many descriptors the process may have open (RLIMIT_NOFILE, its soft limit); nil
    /// when the kernel does not say.
    public static func openFileLimit() -> UInt64? {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return nil }
        return UInt64(limit.rlim_cur)
    }

    /// The largest write the kernel never interleaves with another on a pipe (PIPE_BUF).
    public static var atomicPipeWrite: Int { Int(PIPE_BUF) }

    /// Lowers the calling thread's scheduling priority to `nice` (setpriority with `who` 0:
    /// Linux keeps a nice value per thread, so the rest of the process keeps its own).
    public static func setCallingThreadNice(_ nice: Int32) {
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, nice)
    }
}
