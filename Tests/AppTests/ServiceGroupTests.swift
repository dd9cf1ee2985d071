import Foundation
import Observability
import Synchronization
import XCTest
@testable import App
import TestSupport

/// Services start in order, stop in reverse, and a failure or the trigger shuts them all down.
final class ServiceGroupTests: XCTestCase {
    /// What every service did, in order.
    final class Journal: Sendable {
        let entries = Mutex<[String]>([])
        func add(_ entry: String) { entries.withLock { $0.append(entry) } }
        var all: [String] { entries.withLock { $0 } }
    }

    final class Recorder: Service {
        let name: String
        let journal: Journal
        let failsToStart: Bool
        let failure = Mutex<(@Sendable (any Error) -> Void)?>(nil)
        let deadline = Mutex<ContinuousClock.Instant?>(nil)

        init(_ name: String, _ journal: Journal, failsToStart: Bool = false) {
            self.name = name
            self.journal = journal
            self.failsToStart = failsToStart
        }

        struct CannotStart: Error {}
        struct Broke: Error, CustomStringConvertible { var description: String { "the disk went away" } }

        func start(fail: @escaping @Sendable (any Error) -> Void) throws {
            if failsToStart { throw CannotStart() }
            failure.withLock { $0 = fail }
            journal.add("start \(name)")
        }

        func shutDown(deadline: ContinuousClock.Instant) {
            self.deadline.withLock { $0 = deadline }
            journal.add("stop \(name)")
        }

        /// The service's own work ends in an error, from its own thread.
        func breakDown() { failure.withLock { $0 }?(Broke()) }
    }

    func testStartsInOrderAndStopsInReverseWhenTriggered() throws {
        let journal = Journal()
        let services = ["databases", "comments", "library", "http"].map { Recorder($0, journal) }
        let group = ServiceGroup(services, gracePeriod: .seconds(3), logger: .disabled)
        let done = DispatchSemaphore(value: 0)
        let result = Mutex<ShutdownReason?>(nil)
        Thread {
            let reason = try? group.run()
            result.withLock { $0 = reason }
            done.signal()
        }.start()
        XCTAssertTrue(eventually(timeout: 30) { journal.all.count >= 4 }, "every service started")
        XCTAssertEqual(journal.all, ["start databases", "start comments", "start library", "start http"])
        let before = ContinuousClock.now
        group.trigger.fire(.requested)
        XCTAssertEqual(done.wait(timeout: .now() + 30), .success)
        XCTAssertEqual(journal.all.suffix(4), ["stop http", "stop library", "stop comments", "stop databases"])
        guard case .requested = result.withLock({ $0 }) else { return XCTFail("\(String(describing: result.withLock { $0 }))") }
        // One deadline for all, the grace period from when shutdown began.
        let deadlines = Set(services.compactMap { $0.deadline.withLock { $0 } })
        XCTAssertEqual(deadlines.count, 1)
        let deadline = try XCTUnwrap(deadlines.first)
        XCTAssertGreaterThanOrEqual(deadline, before + .seconds(3))
        XCTAssertLessThan(deadline, ContinuousClock.now + .seconds(3))
    }

    func testAServiceThatCannotStartStopsTheOnesBeforeItAndNoneAfter() {
        let journal = Journal()
        let group = ServiceGroup([Recorder("a", journal), Recorder("b", journal), Recorder("c", journal, failsToStart: true),
                                  Recorder("d", journal)], gracePeriod: .seconds(1), logger: .disabled)
        XCTAssertThrowsError(try group.start()) { XCTAssertTrue($0 is Recorder.CannotStart) }
        XCTAssertEqual(journal.all, ["start a", "start b", "stop b", "stop a"])
    }

    func testAFailingServiceShutsTheGroupDownAndSaysWhy() throws {
        let journal = Journal()
        let library = Recorder("library", journal)
        let group = ServiceGroup([Recorder("databases", journal), library, Recorder("http", journal)],
                                 gracePeriod: .seconds(1), logger: .disabled)
        try group.start()
        Thread { library.breakDown() }.start()
        let reason = group.trigger.wait()
        guard case .failed(let service, let error) = reason else { return XCTFail("\(reason)") }
        XCTAssertEqual(service, "library")
        XCTAssertTrue(error is Recorder.Broke)
        XCTAssertEqual(reason.description, "library failed: the disk went away")
        group.shutDown()
        group.shutDown() // a second call does nothing more
        XCTAssertEqual(journal.all, ["start databases", "start library", "start http", "stop http", "stop library", "stop databases"])
    }

    /// A thread waiting in `sigwait` wakes for a failure: SIGTERM directed at that thread alone
    /// (blocked there, so it never reaches the test process's default action).
    func testAFailureWakesAThreadWaitingForSignals() {
        let trigger = Mutex<ShutdownTrigger?>(nil)
        let reason = Mutex<ShutdownReason?>(nil)
        let ready = DispatchSemaphore(value: 0), done = DispatchSemaphore(value: 0)
        Thread {
            let waiting = ShutdownTrigger.signals()
            trigger.withLock { $0 = waiting }
            ready.signal()
            let received = waiting.wait()
            reason.withLock { $0 = received }
            done.signal()
        }.start()
        ready.wait()
        trigger.withLock { $0 }?.fire(.failed(service: "http", error: Recorder.Broke()))
        XCTAssertEqual(done.wait(timeout: .now() + 30), .success)
        guard case .failed(let service, _) = reason.withLock({ $0 }) else { return XCTFail("\(String(describing: reason.withLock { $0 }))") }
        XCTAssertEqual(service, "http")
    }

    func testTheFirstReasonWins() {
        let trigger = ShutdownTrigger()
        trigger.fire(.signal(SIGTERM))
        trigger.fire(.requested)
        guard case .signal(let signal) = trigger.wait() else { return XCTFail() }
        XCTAssertEqual(signal, SIGTERM)
    }

    func testDurationsForTheLogAndForDispatch() {
        XCTAssertEqual(Duration.seconds(double: 1.5), .milliseconds(1500))
        XCTAssertEqual(Duration.seconds(double: -2), .zero)
        XCTAssertEqual(Duration.milliseconds(1500).loggedSeconds, "1.5")
        XCTAssertEqual(Duration.seconds(10).loggedSeconds, "10")
        XCTAssertEqual(Duration.milliseconds(2050).loggedSeconds, "2.05")
        XCTAssertEqual(Duration.milliseconds(250).inSeconds, 0.25, accuracy: 1e-12)
        // Each conversion is bracketed by readings of the clocks taken just before and after it,
        // so a thread paused between two lines (a loaded machine) changes nothing.
        let dispatchBefore = DispatchTime.now()
        let soon = (ContinuousClock.now + .milliseconds(200)).dispatchTime
        let dispatchAfter = DispatchTime.now()
        XCTAssertGreaterThanOrEqual(soon, dispatchBefore + 0.199)
        XCTAssertLessThanOrEqual(soon, dispatchAfter + 0.201)
        XCTAssertLessThanOrEqual((ContinuousClock.now - .seconds(1)).dispatchTime, DispatchTime.now())
        // The seconds the event loops read are ContinuousClock's. `instant` reads both clocks
        // itself, and a pause between its two readings shifts its answer by the pause: a second
        // of slack is far more than a pause, and far less than another clock would be off.
        let slack = Duration.seconds(1)
        let before = ContinuousClock.now
        let seconds = ClockSeconds.now()
        let after = ContinuousClock.now
        XCTAssertGreaterThanOrEqual(ClockSeconds.instant(seconds), before - slack)
        XCTAssertLessThanOrEqual(ClockSeconds.instant(seconds), after + slack)
        XCTAssertGreaterThanOrEqual(ClockSeconds.instant(seconds + 2), before + .seconds(2) - slack)
        XCTAssertLessThanOrEqual(ClockSeconds.instant(seconds + 2), after + .seconds(2) + slack)
    }
}
