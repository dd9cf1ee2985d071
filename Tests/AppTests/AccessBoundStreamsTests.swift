@testable import Access
import Dispatch
import HTTP
import Synchronization
import XCTest

/// One change is ended twice in a process: by the request that made it, before it answers, and
/// by its notification, heard on the listener's thread, often at the same moment. Whichever end
/// returns first, the streams it ended must be closed by then: the answer goes out next, and
/// whatever its client does after (a comment) must not reach them.
final class AccessBoundStreamsTests: XCTestCase {
    func testAnEndReturnsOnlyOnceItsStreamsAreClosedEvenWhenAnotherEndTookThem() {
        let taken = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0), heard = DispatchSemaphore(value: 0)
        let first = Mutex(true)
        let streams = AccessBoundStreams(wallNow: { 0 }, ending: {
            // The first end (the notification's) is held here, having taken the streams.
            guard first.withLock({ first in defer { first = false }; return first }) else { return }
            taken.signal()
            release.wait()
        })
        let ended = RecordingStream(), other = RecordingStream()
        streams.add(ended, riding: AccessBoundStreams.Access(session: "laptop", user: 1), since: streams.epoch)
        streams.add(other, riding: AccessBoundStreams.Access(session: "theirs", user: 2), since: streams.epoch)

        DispatchQueue.global().async {
            streams.end(.user(1))
            heard.signal()
        }
        XCTAssertEqual(taken.wait(timeout: .now() + 30), .success, "the notification's end took the streams")
        // The request's own end, which answers next.
        streams.end(.user(1))
        XCTAssertTrue(ended.isClosed, "the person's stream is closed before the change answers")
        XCTAssertFalse(ended.write(Array("a comment after the change".utf8)), "nothing written after reaches it")
        XCTAssertFalse(other.isClosed, "another person's stream goes on")
        release.signal()
        XCTAssertEqual(heard.wait(timeout: .now() + 30), .success)
    }
}
