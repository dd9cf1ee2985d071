#if canImport(Glibc)
import Glibc
#endif
// epoll and eventfd come from our C shims' headers (Glibc's Swift overlay leaves them out);
// imported publicly so that the calls an event loop makes per wake-up can be inlined.
public import CShims

/// One epoll instance plus an eventfd that other threads use to wake it.
public struct Epoll: Sendable {
    public let fd: Int32
    public let wakeFD: Int32

    public init() throws(SystemCallError) {
        fd = try requireSystemCall("epoll_create1") { epoll_create1(Int32(EPOLL_CLOEXEC)) }
        wakeFD = try requireSystemCall("eventfd") { eventfd(0, Int32(EFD_NONBLOCK) | Int32(EFD_CLOEXEC)) }
        try add(wakeFD, events: EpollFlags.readable)
    }

    /// Watches `descriptor` for `events` (`EpollFlags`); epoll reports `descriptor` back.
    @inlinable
    public func add(_ descriptor: Int32, events: UInt32) throws(SystemCallError) {
        var event = epoll_event(events: events, data: epoll_data_t(fd: descriptor))
        try requireSystemCall("epoll_ctl(ADD)") { epoll_ctl(fd, EPOLL_CTL_ADD, descriptor, &event) }
    }

    @inlinable
    public func remove(_ descriptor: Int32) {
        var event = epoll_event()
        _ = epoll_ctl(fd, EPOLL_CTL_DEL, descriptor, &event)
    }

    /// Waits up to `timeoutMilliseconds` (−1 forever) and stores what is ready in `events`.
    @inlinable
    public func wait(into events: inout EpollEvents, timeoutMilliseconds: Int32) {
        let count = epoll_wait(fd, events.storage.baseAddress, Int32(events.storage.count), timeoutMilliseconds)
        events.count = count < 0 ? 0 : Int(count)
    }

    /// Wakes a thread blocked in `wait`; safe from any thread.
    @inlinable
    public func wake() {
        var one: UInt64 = 1
        _ = Glibc.write(wakeFD, &one, 8)
    }

    /// Clears the wake-up counter after epoll reported it.
    @inlinable
    public func drainWake() {
        var value: UInt64 = 0
        _ = Glibc.read(wakeFD, &value, 8)
    }

    public func close() {
        _ = Glibc.close(wakeFD)
        _ = Glibc.close(fd)
    }
}
