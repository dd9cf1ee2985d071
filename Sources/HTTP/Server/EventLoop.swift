import Foundation
import Observability
import POSIX
import Synchronization

/// One epoll instance on one thread with its own SO_REUSEPORT listener. Connections never
/// change loops; other threads reach a loop only through `execute`.
// @unchecked Sendable: its state is touched only on its own thread; other threads use `execute` (the `inbox` lock) and the Atomic count.
final class EventLoop: @unchecked Sendable {
    let context: ServerContext
    let epoll: Epoll
    private(set) var listener: Int32
    private var connections: [Int32: Connection] = [:]
    /// This loop's connections by client (`ClientKey`: an IPv6 client by its /64), for the per-client cap.
    private var byAddress: [String: [Connection]] = [:]
    private let inbox = Mutex<[@Sendable () -> Void]>([])
    private var thread: Thread?
    private let finished = DispatchSemaphore(value: 0)
    /// Signalled once, when shutdown has begun and the last connection has closed.
    let drained = DispatchSemaphore(value: 0)
    private var running = true
    private var shuttingDown = false
    /// Set while accepting is paused after an accept error.
    private var acceptPausedUntil: Double?
    /// Bytes are read here first; one buffer serves every connection of the loop.
    let readBuffer: UnsafeMutableRawBufferPointer
    var encoder: ResponseHeadEncoder
    private(set) var now: Double
    /// The number of connections, readable from other threads during shutdown.
    let connectionCount = Atomic<Int>(0)
    /// This loop's access log; its lines are written in batches.
    let accessLog: AccessLog

    /// Why a connection is refused as it is accepted, before any request is read.
    enum Refusal: String {
        case tooBusy = "The server has too many connections; try again soon."
        case tooManyFromAddress = "Your address has too many connections open; close some or try again soon."
    }

    /// Sends `refusal` as a 503 problem+json through this loop's head encoder (so its head is
    /// spelled as every other answer's), then closes `fd`. A refused connection is the
    /// overloaded path: it makes its bytes when it happens rather than keeping them made.
    private func refuse(_ fd: Int32, _ refusal: Refusal) {
        var headers = HTTPHeaders()
        headers.set("Content-Type", "application/problem+json")
        headers.set("Retry-After", "1")
        let body = ProblemDetails(.serviceUnavailable, detail: refusal.rawValue).bytes
        let answer = PreparedResponse(status: .serviceUnavailable, headers: headers, payload: .bytes(body), contentLength: body.count)
        let bytes = encoder.encode(answer, close: true, keepAliveForHTTP10: false) + body
        bytes.withUnsafeBytes { _ = try? Socket.send(fd, $0) }
        Socket.close(fd)
    }

    init(context: ServerContext, listener: Int32) throws {
        self.context = context
        self.listener = listener
        self.epoll = try Epoll()
        self.readBuffer = .allocate(byteCount: 64 * 1024, alignment: 16)
        self.encoder = ResponseHeadEncoder(serverName: context.serverName)
        self.now = ClockSeconds.now()
        self.accessLog = AccessLog(logger: context.logger)
        try epoll.add(listener, events: EpollFlags.readable)
    }

    deinit {
        readBuffer.deallocate()
        epoll.close()
    }

    func start(name: String) {
        let thread = Thread { [self] in
            self.run()
            self.finished.signal()
        }
        thread.name = name
        thread.stackSize = 4 << 20
        self.thread = thread
        thread.start()
    }

    /// Runs `task` on this loop's thread soon; safe from any thread.
    func execute(_ task: @escaping @Sendable () -> Void) {
        let wasEmpty = inbox.withLock { tasks -> Bool in
            tasks.append(task)
            return tasks.count == 1
        }
        if wasEmpty { epoll.wake() }
    }

    /// Blocks until the loop's thread has ended.
    func join() { finished.wait() }

    /// The loop's timer: deadlines are checked in one sweep over the connections, and the next
    /// sweep is due at the earliest deadline found. A deadline set after a sweep is at least
    /// `shortestLimit` away, so sweeping no later than that after each sweep never misses one.
    private func run() {
        var events = EpollEvents(capacity: 256)
        var nextSweep = ClockSeconds.now() + shortestLimit
        while running {
            let wake = min(nextSweep, acceptPausedUntil ?? .infinity, accessLog.flushDeadline ?? .infinity)
            let wait = max(0, wake - ClockSeconds.now())
            epoll.wait(into: &events, timeoutMilliseconds: Int32(min(wait, 60) * 1000 + 1))
            now = ClockSeconds.now()
            for index in 0..<events.count {
                let (fd, ready) = events[index]
                if fd == epoll.wakeFD {
                    epoll.drainWake()
                    runTasks()
                } else if fd == listener {
                    acceptConnections()
                } else if let connection = connections[fd] {
                    connection.handle(events: ready)
                }
            }
            resumeAcceptingIfDue()
            accessLog.flushIfDue(now: now)
            if now >= nextSweep {
                nextSweep = now + shortestLimit
                for connection in Array(connections.values) {
                    connection.tick()
                    if !connection.isClosed, let deadline = connection.machine.nextDeadline() { nextSweep = min(nextSweep, deadline) }
                }
                // Coarse enough not to spin on deadlines a hair away, fine enough for sub-second limits.
                nextSweep = max(nextSweep, now + 0.005)
            }
        }
        for connection in Array(connections.values) { connection.close() }
        if listener >= 0 { Socket.close(listener) }
        // Every answered request is in the log before the loop's thread ends (shutdown waits for it).
        accessLog.flush()
    }

    /// The shortest time from any event to the deadline it arms.
    private var shortestLimit: Double {
        let limits = context.limits
        return max(0.01, min(limits.headTimeoutSeconds, limits.idleTimeoutSeconds, limits.writeTimeoutSeconds,
                             limits.bodyTimeoutSeconds, ConnectionMachine.defaultLingerSeconds))
    }

    private func runTasks() {
        let tasks = inbox.withLock { tasks -> [@Sendable () -> Void] in
            let taken = tasks
            tasks.removeAll()
            return taken
        }
        now = ClockSeconds.now()
        for task in tasks { task() }
    }

    private func acceptConnections() {
        // A bounded batch keeps one busy listener from starving the loop's connections.
        for _ in 0..<128 {
            guard listener >= 0 else { return }
            let accepted: (fd: Int32, remote: String)?
            do { accepted = try Socket.accept(listener) } catch where error.errno == Errno.connectionAborted {
                continue
            } catch {
                // Out of descriptors (EMFILE) and the like: the listener stays readable, so stop
                // watching it for a moment instead of spinning on the same error.
                context.logger.warning("accept failed; pausing accepts for a second", [("error", String(describing: error))])
                epoll.remove(listener)
                acceptPausedUntil = now + 1
                return
            }
            guard let (fd, remote) = accepted else { return }
            let client = ClientKey.of(remote)
            if context.openConnections.add() > context.limits.maxConnections {
                // Full: the connection of this loop quiet the longest (idle, silent, or inside a
                // head that never comes whole) makes room; only with none quiet is the new one refused.
                guard let quietest = connections.values.min(by: { ($0.machine.quietSince ?? .infinity) < ($1.machine.quietSince ?? .infinity) }),
                      quietest.machine.quietSince != nil else {
                    context.openConnections.subtract()
                    refuse(fd, .tooBusy)
                    continue
                }
                quietest.close()
            }
            guard makeRoom(for: client) else {
                context.openConnections.subtract()
                refuse(fd, .tooManyFromAddress)
                continue
            }
            Socket.setNoDelay(fd)
            let connection = Connection(fd: fd, remoteAddress: remote, clientKey: client, loop: self)
            do {
                try epoll.add(fd, events: EpollFlags.readable | EpollFlags.writable | EpollFlags.peerClosed | EpollFlags.edgeTriggered)
            } catch {
                context.openConnections.subtract()
                if context.maxConnectionsPerAddress > 0 { context.addressConnections.remove(client) }
                Socket.close(fd)
                continue
            }
            connections[fd] = connection
            if context.maxConnectionsPerAddress > 0 { byAddress[client, default: []].append(connection) }
            connectionCount.add(1, ordering: .relaxed)
            context.observer.connectionOpened()
            if shuttingDown { connection.shutdown() }
        }
    }

    private func resumeAcceptingIfDue() {
        guard let until = acceptPausedUntil, now >= until else { return }
        acceptPausedUntil = nil
        if listener >= 0 { try? epoll.add(listener, events: EpollFlags.readable) }
    }

    /// Whether `client` (a `ClientKey`) may open one more connection, counting it if so. At its
    /// cap (over all loops), its connection quiet the longest on this loop is closed to make
    /// room; false when this loop holds none of its connections quiet.
    private func makeRoom(for client: String) -> Bool {
        let cap = context.maxConnectionsPerAddress
        guard cap > 0 else { return true }
        if context.addressConnections.add(client, cap: cap) { return true }
        var oldest: (connection: Connection, since: Double)?
        for connection in byAddress[client] ?? [] {
            guard let since = connection.machine.quietSince else { continue }
            if oldest == nil || since < oldest!.since { oldest = (connection, since) }
        }
        guard let oldest else { return false }
        oldest.connection.close()
        context.addressConnections.add(client)
        return true
    }

    /// Called by a connection once its descriptor is closed.
    func removed(_ connection: Connection) {
        connections[connection.fd] = nil
        if context.maxConnectionsPerAddress > 0, var open = byAddress[connection.clientKey] {
            open.removeAll { $0 === connection }
            byAddress[connection.clientKey] = open.isEmpty ? nil : open
            context.addressConnections.remove(connection.clientKey)
        }
        connectionCount.subtract(1, ordering: .relaxed)
        context.openConnections.subtract()
        context.observer.connectionClosed()
        if shuttingDown && connections.isEmpty { drained.signal() }
    }

    /// Stops accepting and asks every connection to finish what it has in flight.
    func beginShutdown() {
        shuttingDown = true
        acceptPausedUntil = nil
        if listener >= 0 {
            epoll.remove(listener)
            Socket.close(listener)
            listener = -1
        }
        let wasEmpty = connections.isEmpty
        for connection in Array(connections.values) { connection.shutdown() }
        // The last connection's close signals `drained`; with none open, nothing else would.
        if wasEmpty { drained.signal() }
    }

    /// Closes whatever is still open and ends the thread.
    func stop() {
        running = false
    }
}
