import Dispatch
import Observability
import Synchronization

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
