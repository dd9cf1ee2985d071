import Observability
#if canImport(Glibc)
import Glibc
#endif
import POSIX
internal import CShims

// The only file of the server that sees the C headers (CShims): epoll, eventfd and accept4,
// which Glibc's Swift overlay does not export.

/// epoll interest and readiness bits, named here so no other file needs the C headers.
enum EpollFlags {
    static let readable = EPOLLIN.rawValue
    static let writable = EPOLLOUT.rawValue
    static let peerClosed = EPOLLRDHUP.rawValue
    static let edgeTriggered = EPOLLET.rawValue
    static let error = EPOLLERR.rawValue
    static let hangUp = EPOLLHUP.rawValue
}

/// One epoll instance plus an eventfd that other threads use to wake it.
struct Epoll {
    let fd: Int32
    let wakeFD: Int32

    init() throws {
        fd = try requireSystemCall("epoll_create1") { epoll_create1(Int32(EPOLL_CLOEXEC)) }
        wakeFD = try requireSystemCall("eventfd") { eventfd(0, Int32(EFD_NONBLOCK) | Int32(EFD_CLOEXEC)) }
        try add(wakeFD, events: EpollFlags.readable)
    }

    /// Watches `descriptor` for `events` (EPOLLIN, EPOLLOUT, EPOLLET …); epoll reports `descriptor` back.
    func add(_ descriptor: Int32, events: UInt32) throws {
        var event = epoll_event(events: events, data: epoll_data_t(fd: descriptor))
        try requireSystemCall("epoll_ctl(ADD)") { epoll_ctl(fd, EPOLL_CTL_ADD, descriptor, &event) }
    }

    func remove(_ descriptor: Int32) {
        var event = epoll_event()
        _ = epoll_ctl(fd, EPOLL_CTL_DEL, descriptor, &event)
    }

    /// Waits up to `timeoutMilliseconds` (−1 forever) and stores what is ready in `events`.
    func wait(into events: inout EpollEvents, timeoutMilliseconds: Int32) {
        let count = epoll_wait(fd, events.storage.baseAddress, Int32(events.storage.count), timeoutMilliseconds)
        events.count = count < 0 ? 0 : Int(count)
    }

    /// Wakes a thread blocked in `wait`; safe from any thread.
    func wake() {
        var one: UInt64 = 1
        _ = Glibc.write(wakeFD, &one, 8)
    }

    /// Clears the wake-up counter after epoll reported it.
    func drainWake() {
        var value: UInt64 = 0
        _ = Glibc.read(wakeFD, &value, 8)
    }

    func close() {
        _ = Glibc.close(wakeFD)
        _ = Glibc.close(fd)
    }
}

/// accept4(2) of `listener`, giving a non-blocking, close-on-exec descriptor and the peer's address in `address`.
@inline(__always)
func acceptNonblocking(_ listener: Int32, _ address: UnsafeMutablePointer<sockaddr>, _ length: inout socklen_t) -> Int32 {
    cshims_accept_nonblocking(listener, address, &length)
}

/// Seconds on `ContinuousClock` (`ClockSeconds`), for deadlines that must not jump with the wall clock.
@inline(__always)
func monotonicSeconds() -> Double { ClockSeconds.now() }

/// A reusable buffer of ready events filled by `Epoll.wait`.
struct EpollEvents: ~Copyable {
    fileprivate let storage: UnsafeMutableBufferPointer<epoll_event>
    fileprivate(set) var count = 0

    init(capacity: Int) { storage = .allocate(capacity: capacity) }
    deinit { storage.deallocate() }

    /// The descriptor and readiness bits of event `index`.
    subscript(index: Int) -> (fd: Int32, events: UInt32) { (storage[index].data.fd, storage[index].events) }
}
