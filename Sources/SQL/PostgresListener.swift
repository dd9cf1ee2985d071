import Foundation
import Glibc
import POSIX
import Synchronization

/// The thread behind a PostgreSQL `SQLListener`: connect, `LISTEN`, wait, deliver, and on any
/// failure start over with backoff. Its connection lives on that thread only.
final class PostgresListener: Sendable {
    private let url: PostgresURL
    private let options: PostgresOptions
    private let channels: [String]
    private let keepAlive: Duration
    private let backoff: SQLBackoff
    private let handler: @Sendable (SQLListenerEvent) -> Void
    private let wake: WakePipe
    private let stopping = Atomic(false)
    private let finished = DispatchSemaphore(value: 0)
    private let threadID = Mutex<pthread_t?>(nil)

    init(url: PostgresURL, options: PostgresOptions, channels: [String], keepAlive: Duration, backoff: SQLBackoff,
         handler: @escaping @Sendable (SQLListenerEvent) -> Void) throws {
        self.url = url
        self.options = options
        self.channels = channels
        self.keepAlive = keepAlive
        self.backoff = backoff
        self.handler = handler
        self.wake = try WakePipe()
    }

    /// Starts the thread; events begin with `.connected` or `.disconnected`.
    func start() -> SQLListener {
        let thread = Thread { [self] in
            threadID.withLock { $0 = pthread_self() }
            run()
            finished.signal()
        }
        thread.name = "sql-listener"
        thread.start()
        return SQLListener { [self] in stop() }
    }

    private func stop() {
        stopping.store(true, ordering: .releasing)
        wake.signal()
        let calledFromHandler = threadID.withLock { $0.map { pthread_equal($0, pthread_self()) != 0 } ?? false }
        if !calledFromHandler { finished.wait() }
    }

    private var isStopping: Bool { stopping.load(ordering: .acquiring) }

    private func run() {
        var failures = 0
        var everConnected = false
        var reportedDown = false
        while !isStopping {
            let connection: PostgresDriverConnection
            do {
                connection = try PostgresDriverConnection(url: url, options: options)
                for channel in channels { try connection.listen(channel) }
            } catch {
                failures += 1
                if !reportedDown {
                    reportedDown = true
                    deliver(.disconnected(error as? SQLError ?? SQLError(.other, message: "\(error)")))
                }
                sleep(backoff.delay(afterFailures: failures, jitter: Double.random(in: 0..<1)))
                continue
            }
            failures = 0
            reportedDown = false
            deliver(.connected(reconnect: everConnected))
            everConnected = true
            let lost = listen(on: connection)
            connection.close()
            if let lost {
                reportedDown = true
                deliver(.disconnected(lost))
            }
        }
    }

    /// Delivers notifications until the connection breaks (returns the error) or the listener stops (nil).
    private func listen(on connection: PostgresDriverConnection) -> SQLError? {
        var idleSince = ContinuousClock.now
        while !isStopping {
            var fds = [pollfd(fd: connection.socket, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: wake.readEnd, events: Int16(POLLIN), revents: 0)]
            let waited = ContinuousClock.now - idleSince
            let remaining = max(.zero, keepAlive - waited)
            let ready: Int32
            do { ready = try requireSystemCall("poll") { poll(&fds, 2, Int32(clamping: remaining.nanoseconds / 1_000_000)) } } catch {
                return SQLError(.connectionLost, message: "poll failed: errno \(error.errno)")
            }
            if isStopping { return nil }
            do {
                if ready == 0 {
                    // Quiet for `keepAlive`: a round trip tells a live server from a vanished one.
                    try connection.execute("SELECT 1")
                    idleSince = .now
                }
                if ready > 0 || connection.isBroken { idleSince = .now }
                for notification in try connection.receiveNotifications() {
                    deliver(.notification(notification))
                    if isStopping { return nil }
                }
            } catch {
                return error as? SQLError ?? SQLError(.connectionLost, message: "\(error)")
            }
        }
        return nil
    }

    private func deliver(_ event: SQLListenerEvent) {
        if !isStopping { handler(event) }
    }

    /// Sleeps for `duration` unless the listener is stopped first.
    private func sleep(_ duration: Duration) {
        var fd = pollfd(fd: wake.readEnd, events: Int16(POLLIN), revents: 0)
        _ = poll(&fd, 1, Int32(clamping: duration.nanoseconds / 1_000_000))
    }
}

/// A pipe whose only purpose is to wake a thread blocked in `poll`.
final class WakePipe: Sendable {
    let readEnd: Int32
    private let writeEnd: Int32

    init() throws {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else {
            throw SQLError(.other, message: "cannot make a pipe: errno \(errno)")
        }
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
    func signal() {
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }
}
