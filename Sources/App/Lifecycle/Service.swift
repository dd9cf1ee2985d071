import Dispatch
import Observability
import POSIX
import Synchronization

/// One long-running part of the server (a store, the library's scans, the HTTP server), started
/// in order by a `ServiceGroup` and shut down in reverse.
///
/// `start` returns once the service is running (threads started, port bound) and throws when it
/// cannot start. A service whose work ends on its own with an error calls `fail`, which shuts the
/// whole group down. `shutDown` releases everything the service holds and joins its threads;
/// `deadline` bounds only how long it waits for others (in-flight requests, running builds),
/// never whether it releases: a store is closed even when the deadline has passed.
public protocol Service: AnyObject, Sendable {
    /// Its name in the log.
    var name: String { get }
    func start(fail: @escaping @Sendable (any Error) -> Void) throws
    func shutDown(deadline: ContinuousClock.Instant)
}

extension Service {
    /// A service that is running once it is made (a store opened before the group starts) has
    /// nothing to start.
    public func start(fail: @escaping @Sendable (any Error) -> Void) throws {}
}

/// Why a group shuts down.
public enum ShutdownReason: Sendable, CustomStringConvertible {
    /// SIGTERM or SIGINT.
    case signal(Int32)
    /// A service's work ended with an error.
    case failed(service: String, error: any Error)
    /// `ShutdownTrigger.fire` from the program itself (tests, embedding code).
    case requested

    public var description: String {
        switch self {
        case .signal(let signal): ShutdownSignals.name(signal)
        case .failed(let service, let error): "\(service) failed: \(error)"
        case .requested: "requested"
        }
    }
}

/// What a `ServiceGroup` waits for between start and shutdown: the first of a stopping signal,
/// a failed service, or a request; later ones are ignored.
///
/// With signals, the waiting thread sits in `sigwait` (the signals are blocked in every thread,
/// so none is lost, `ShutdownSignals`); a failure or request wakes it by directing SIGTERM at
/// that thread alone, the same path an operator's signal takes. Without, it waits on a semaphore.
public final class ShutdownTrigger: Sendable {
    private let reason = Mutex<ShutdownReason?>(nil)
    private let fired = DispatchSemaphore(value: 0)
    /// The thread that waits in `sigwait`, when signals are taken.
    private let signalWaiter: ThreadID?

    /// A trigger fired only by `fire` (tests, embedding code).
    public init() { signalWaiter = nil }

    private init(signalWaiter: ThreadID) { self.signalWaiter = signalWaiter }

    /// A trigger also fired by SIGTERM and SIGINT. Blocks them in the calling thread (and in the
    /// threads it starts from now on); `wait` must be called on this same thread.
    public static func signals() -> ShutdownTrigger {
        ShutdownSignals.block()
        return ShutdownTrigger(signalWaiter: .current)
    }

    /// Shuts the group down for `reason`, unless something already has.
    public func fire(_ reason: ShutdownReason) {
        let first = self.reason.withLock { current -> Bool in
            guard current == nil else { return false }
            current = reason
            return true
        }
        guard first else { return }
        if let signalWaiter {
            signalWaiter.send(Signals.terminate)
        } else {
            fired.signal()
        }
    }

    /// Blocks until the trigger fires; returns the first reason.
    public func wait() -> ShutdownReason {
        if signalWaiter != nil {
            let received = ShutdownSignals.wait()
            return reason.withLock { current in
                if let current { return current }
                current = .signal(received)
                return .signal(received)
            }
        }
        fired.wait()
        return reason.withLock { $0 ?? .requested }
    }
}

/// Services started in the order given and shut down in reverse, like a stack: a service may use
/// every one before it while it runs and while it stops.
public final class ServiceGroup: Sendable {
    public let services: [any Service]
    /// How long shutting down may wait for in-flight work, over all services together.
    public let gracePeriod: Duration
    public let trigger: ShutdownTrigger
    private let logger: Logger
    private struct State {
        var started = 0
        var shutDown = false
    }
    private let state = Mutex(State())
    /// Signalled once the last service has been shut down.
    private let finished = DispatchSemaphore(value: 0)

    public init(_ services: [any Service], gracePeriod: Duration, trigger: ShutdownTrigger = ShutdownTrigger(), logger: Logger) {
        self.services = services
        self.gracePeriod = gracePeriod
        self.trigger = trigger
        self.logger = logger
    }

    /// Starts every service in order. When one throws, those already started are shut down in
    /// reverse and the error is rethrown.
    public func start() throws {
        for (index, service) in services.enumerated() {
            let name = service.name
            let trigger = self.trigger
            do {
                try service.start(fail: { error in trigger.fire(.failed(service: name, error: error)) })
            } catch {
                logger.error("\(name) could not start: \(error)")
                shutDown()
                throw error
            }
            let stopped = state.withLock { state -> Bool in
                if !state.shutDown { state.started = index + 1 }
                return state.shutDown
            }
            // Shut down while starting (a failure reported from another thread): this one too.
            if stopped { service.shutDown(deadline: .now + gracePeriod) }
        }
    }

    /// Shuts down the started services in reverse order, sharing one deadline `gracePeriod` away;
    /// a second call waits for the first to finish.
    public func shutDown() {
        let started = state.withLock { state -> Int? in
            guard !state.shutDown else { return nil }
            state.shutDown = true
            return state.started
        }
        guard let started else {
            finished.wait()
            finished.signal()
            return
        }
        let deadline = ContinuousClock.now + gracePeriod
        for service in services[..<started].reversed() {
            let began = ContinuousClock.now
            service.shutDown(deadline: deadline)
            logger.debug("stopped \(service.name)", [("seconds", (ContinuousClock.now - began).loggedSeconds)])
        }
        finished.signal()
    }

    /// Starts, waits for the trigger, shuts down; returns why it stopped.
    public func run() throws -> ShutdownReason {
        try start()
        let reason = trigger.wait()
        let why: (String, String) = if case .signal(let signal) = reason { ("signal", ShutdownSignals.name(signal)) } else { ("reason", reason.description) }
        logger.info("shutting down", [why, ("graceSeconds", gracePeriod.loggedSeconds)])
        shutDown()
        return reason
    }
}
