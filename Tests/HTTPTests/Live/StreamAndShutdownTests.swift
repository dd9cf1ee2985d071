import Foundation
import Synchronization
import XCTest
@testable import HTTP

final class StreamAndShutdownTests: XCTestCase {
    // @unchecked Sendable: `open` is guarded by `lock`.
    final class Streams: @unchecked Sendable {
        let lock = NSLock()
        var open: [ResponseStream] = []
        let closed = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        /// `/slow` has begun, and runs until `release` (or two minutes) so a test decides when it ends.
        let slowStarted = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
    }

    /// One loop: its idle and streaming connections closing shows that the loop holding the
    /// request in flight has begun its shutdown (with two, the other loop may not have yet).
    func makeServer(_ streams: Streams) throws -> LiveServer {
        try LiveServer(eventLoops: 1) { router in
            router.get("/events", execution: .inline) { _ in
                HTTPResponse(headers: ["Content-Type": "text/event-stream", "Cache-Control": "no-cache"], body: .stream({ stream in
                    stream.onClose { streams.closed.signal() }
                    stream.write(Array("data: hello\n\n".utf8))
                    streams.lock.withLock { streams.open.append(stream) }
                    streams.started.signal()
                }))
            }
            router.get("/slow") { _ in
                streams.slowStarted.signal()
                _ = streams.release.wait(timeout: .now() + 120)
                return HTTPResponse(contentType: "text/plain", bytes: Array("done".utf8))
            }
        }
    }

    func testStreamWritesAndNoticesTheClientLeaving() throws {
        let streams = Streams()
        let live = try makeServer(streams)
        defer { live.stop() }
        let c = try live.connect()
        try c.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
        let head = try c.readResponseHead()
        XCTAssertEqual(head.status, 200)
        XCTAssertNil(head.headers["Content-Length"])
        XCTAssertEqual(head.headers["Connection"], "close")
        XCTAssertEqual(streams.started.wait(timeout: .now() + 30), .success)
        var received = try c.readAvailable()
        let stream = try XCTUnwrap(streams.lock.withLock { streams.open.first })
        // Writes from another thread reach the client.
        DispatchQueue.global().async { stream.write(Array("data: second\n\n".utf8)) }
        while !String(decoding: received, as: UTF8.self).contains("second") { received += try c.readAvailable() }
        XCTAssertEqual(String(decoding: received, as: UTF8.self), "data: hello\n\ndata: second\n\n")
        XCTAssertFalse(stream.isClosed)
        c.close()
        XCTAssertEqual(streams.closed.wait(timeout: .now() + 30), .success)
        XCTAssertTrue(stream.isClosed)
        XCTAssertFalse(stream.write([1]))
    }

    func testApplicationClosesTheStream() throws {
        let streams = Streams()
        let live = try makeServer(streams)
        defer { live.stop() }
        let c = try live.connect()
        try c.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
        _ = try c.readResponseHead()
        XCTAssertEqual(streams.started.wait(timeout: .now() + 30), .success)
        streams.lock.withLock { streams.open.first }?.close()
        XCTAssertTrue(c.waitForClose())
        XCTAssertEqual(streams.closed.wait(timeout: .now() + 30), .success)
    }

    func testGracefulShutdownFinishesInFlightAndClosesStreams() throws {
        let streams = Streams()
        let live = try makeServer(streams)
        let port = live.port
        let sse = try live.connect()
        try sse.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
        _ = try sse.readResponseHead()
        XCTAssertEqual(streams.started.wait(timeout: .now() + 30), .success)
        let idle = try live.connect()
        try idle.send("GET /missing HTTP/1.1\r\nHost: x\r\n\r\n")
        _ = try idle.readResponse()

        let busy = try live.connect()
        try busy.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(streams.slowStarted.wait(timeout: .now() + 30), .success)
        let finished = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            live.server.shutdown(graceSeconds: 60)
            finished.signal()
        }
        // The idle and streaming connections close as the shutdown begins; only then does the
        // request in flight finish, within its grace.
        XCTAssertTrue(idle.waitForClose())
        XCTAssertTrue(sse.waitForClose())
        streams.release.signal()
        let answer = try busy.readResponse()
        XCTAssertEqual(answer.text, "done")
        XCTAssertEqual(answer.headers["Connection"], "close")
        XCTAssertEqual(streams.closed.wait(timeout: .now() + 30), .success)
        XCTAssertEqual(finished.wait(timeout: .now() + 30), .success)
        live.server.wait()
        XCTAssertThrowsError(try HTTPClientConnection(port: port, timeoutSeconds: 1))
    }

    /// The stuck request runs until the test ends, so a shutdown that waited for it would never
    /// end within the test's half-minute wait.
    func testShutdownGivesUpAfterTheGracePeriod() throws {
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        defer { release.signal() }
        let live = try LiveServer { router in
            router.get("/stuck") { _ in
                started.signal()
                _ = release.wait(timeout: .now() + 300)
                return HTTPResponse()
            }
        }
        let c = try live.connect()
        try c.send("GET /stuck HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(started.wait(timeout: .now() + 30), .success)
        let begun = Date()
        let stopped = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            live.server.shutdown(graceSeconds: 0.3)
            live.server.wait()
            stopped.signal()
        }
        XCTAssertEqual(stopped.wait(timeout: .now() + 30), .success, "the shutdown waited for the stuck request")
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(begun), 0.25, "the shutdown gave no grace")
        XCTAssertTrue(c.waitForClose())
    }
}
