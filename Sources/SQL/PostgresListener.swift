import Foundation
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
    private let threadID = Mutex<ThreadID?>(nil)

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
            threadID.withLock { $0 = .current }
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
        let calledFromHandler = threadID.withLock { $0 == .current }
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
            let waited = ContinuousClock.now - idleSince
            let remaining = max(.zero, keepAlive - waited)
            let ready: Int
            do { ready = try Poll.readable([connection.socket, wake.readEnd], timeout: remaining).count(where: { $0 }) } catch {
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
        _ = try? Poll.readable([wake.readEnd], timeout: duration)
    }
}
