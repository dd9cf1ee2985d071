#if canImport(Glibc)
import Glibc
#endif

/// A pipe whose only purpose is to wake a thread blocked in `poll` (`Poll.readable`) on its read end.
public final class WakePipe: Sendable {
    public let readEnd: Int32
    private let writeEnd: Int32

    public init() throws(SystemCallError) {
        var fds: [Int32] = [-1, -1]
        try requireSystemCall("pipe") { pipe(&fds) }
        // pipe2 would set both at once; Glibc's overlay leaves it out (it needs _GNU_SOURCE).
        for fd in fds {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, O_NONBLOCK)
        }
        readEnd = fds[0]
        writeEnd = fds[1]
    }

    deinit {
        close(readEnd)
        close(writeEnd)
    }

    /// Makes the read end readable for good (the pipe is never drained: it wakes once, to stop).
    public func signal() {
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }
}
