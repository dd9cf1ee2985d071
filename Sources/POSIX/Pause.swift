#if canImport(Glibc)
import Glibc
#endif

/// Sleeps the calling thread for `duration`, the whole of it: a signal that interrupts the sleep
/// (EINTR) resumes it for what is left.
public func pauseThread(_ duration: Duration) {
    guard duration > .zero else { return }
    let (seconds, attoseconds) = duration.components
    var request = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
    var remaining = timespec()
    while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
}
