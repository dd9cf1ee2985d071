#if canImport(Glibc)
import Glibc
#endif

/// poll(2) for readability, for threads that wait on a socket or two rather than run an event loop.
public enum Poll {
    /// Waits until one of `descriptors` is readable (or closed, or in error) or `timeout` passes,
    /// (nil: no limit), and says which are; a signal that interrupts the wait starts it again.
    public static func readable(_ descriptors: [Int32], timeout: Duration?) throws(SystemCallError) -> [Bool] {
        var fds = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        var milliseconds: Int32 = -1
        if let timeout {
            let (seconds, attoseconds) = max(.zero, timeout).components
            milliseconds = Int32(clamping: seconds.multipliedReportingOverflow(by: 1000).partialValue + attoseconds / 1_000_000_000_000_000)
        }
        try requireSystemCall("poll") { poll(&fds, nfds_t(fds.count), milliseconds) }
        return fds.map { $0.revents != 0 }
    }
}
