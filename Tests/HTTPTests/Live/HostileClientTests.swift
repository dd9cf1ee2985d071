import Foundation
import Synchronization
import XCTest
@testable import HTTP
import TestSupport

/// Clients that ask much and read little hold a bounded share of the server: pipelined work is
/// taken one request at a time, answers queue up to a budget, a trickling reader is dropped and
/// a stream's backlog is capped, with paged writers sent only as fast as the client reads.
final class HostileClientTests: XCTestCase {
    final class Counter: Sendable {
        let value = Atomic<Int>(0)
        func add() { value.add(1, ordering: .relaxed) }
        var count: Int { value.load(ordering: .relaxed) }
    }

    /// 16 pipelined requests for 2 MB each from a client that reads nothing: the server works on
    /// them one by one and stops once the socket is full, instead of building all 16 answers.
    func testPipelinedLargeAnswersToAClientThatDoesNotReadAreNotAllBuilt() throws {
        let built = Counter()
        let big = [UInt8](repeating: 0x61, count: 2 << 20)
        let live = try LiveServer { router in
            router.get("/big") { _ in
                built.add()
                return HTTPResponse(contentType: "application/octet-stream", bytes: big)
            }
        }
        defer { live.stop() }
        let c = try live.connect()
        try c.send(String(repeating: "GET /big HTTP/1.1\r\nHost: x\r\n\r\n", count: 16))
        XCTAssertTrue(eventually(timeout: 30) { built.count >= 1 }, "the server took up the requests")
        // What must not happen (all 16 built) is given a second to show; it would take far less.
        Thread.sleep(forTimeInterval: 1)
        // The socket buffers of both ends take a few answers; the rest wait unread.
        XCTAssertLessThanOrEqual(built.count, 6, "\(built.count) answers built for a client that reads nothing")
        // Reading, the client still gets every answer, in order.
        for _ in 0..<16 { XCTAssertEqual(try c.readResponse().body.count, big.count) }
        XCTAssertEqual(built.count, 16)
    }

    func testAClientReadingBelowTheFloorIsDropped() throws {
        var limits = HTTPLimits()
        limits.writeTimeoutSeconds = 0.5
        limits.minSendBytesPerSecond = 64 << 20
        let big = [UInt8](repeating: 0x62, count: 64 << 20)
        let live = try LiveServer(limits: limits) { router in
            router.get("/big", execution: .inline) { _ in HTTPResponse(contentType: "application/octet-stream", bytes: big) }
        }
        defer { live.stop() }
        let c = try live.connect(timeoutSeconds: 10)
        try c.send("GET /big HTTP/1.1\r\nHost: x\r\n\r\n")
        let started = Date()
        var received = 0
        var reset = false
        // 64 KiB every 10 ms: the socket keeps moving, never stalling a whole write timeout, but
        // at a tenth of the floor. Read whole, the answer would take ten seconds and leave the
        // connection open; the test reads on for half a minute or until the server drops it.
        while Date().timeIntervalSince(started) < 30 && live.observer.closed == 0 {
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = recv(c.fd, &chunk, chunk.count, 0)
            if n <= 0 { reset = true; break }
            received += n
            usleep(10_000)
        }
        XCTAssertTrue(eventually(timeout: 30) { live.observer.closed == 1 }, "a trickling reader kept its connection")
        XCTAssertLessThan(received, big.count)
        // Dropped with a reset: what the kernel held for it is gone, not sent on after the close.
        var chunk = [UInt8](repeating: 0, count: 65536)
        var more = 0
        while !reset {
            let n = recv(c.fd, &chunk, chunk.count, 0)
            if n <= 0 { break }
            more += n
        }
        XCTAssertLessThan(received + more, big.count)
    }

    // @unchecked Sendable: `stream` is guarded by `lock`.
    final class StreamBox: @unchecked Sendable {
        let lock = NSLock()
        var stream: ResponseStream?
        let closed = DispatchSemaphore(value: 0)
        let pagesWritten = Atomic<Int>(0)
    }

    func testAStreamWhoseClientDoesNotReadIsClosedOnceItsBacklogIsFull() throws {
        var limits = HTTPLimits()
        limits.maxStreamBacklogBytes = 256 * 1024
        let box = StreamBox()
        let live = try LiveServer(limits: limits) { router in
            router.get("/events", execution: .inline) { _ in
                HTTPResponse(headers: ["Content-Type": "text/event-stream"], body: .stream({ stream in
                    stream.onClose { box.closed.signal() }
                    box.lock.withLock { box.stream = stream }
                }))
            }
        }
        defer { live.stop() }
        let c = try live.connect()
        try c.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
        eventually(timeout: 30) { box.lock.withLock { box.stream } != nil }
        let events = try XCTUnwrap(box.lock.withLock { box.stream })
        // Live events keep coming; the client reads none of them.
        let frame = Array(("data: " + String(repeating: "x", count: 1000) + "\n\n").utf8)
        var writes = 0
        while events.write(frame) && writes < 100_000 {
            writes += 1
            if writes % 100 == 0 { usleep(1_000) }
        }
        XCTAssertEqual(box.closed.wait(timeout: .now() + 30), .success)
        XCTAssertTrue(events.isClosed)
        XCTAssertLessThan(writes, 100_000, "the backlog was never capped")
    }

    /// A writer with much to send pages through `whenDrained`: while the client does not read,
    /// only what the socket buffers hold is written; once it reads, every page arrives in order.
    func testAPagedWriterGoesOnlyAsFastAsTheClientReads() throws {
        let box = StreamBox()
        let pages = 2000
        let page = [UInt8](repeating: 0x70, count: 32 * 1024)
        let live = try LiveServer { router in
            router.get("/replay", execution: .inline) { _ in
                HTTPResponse(headers: ["Content-Type": "text/event-stream"], body: .stream({ stream in
                    @Sendable func next() {
                        let n = box.pagesWritten.add(1, ordering: .relaxed).newValue
                        stream.write(page)
                        if n < pages { stream.whenDrained(next) } else { stream.close() }
                    }
                    next()
                }))
            }
        }
        defer { live.stop() }
        let c = try live.connect()
        try c.send("GET /replay HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertTrue(eventually(timeout: 30) { box.pagesWritten.load(ordering: .relaxed) >= 1 }, "the replay started")
        // What must not happen (every page queued) is given half a second to show; it would take far less.
        Thread.sleep(forTimeInterval: 0.5)
        // The kernel's buffers of both ends take some megabytes; 64 MB would be all of it.
        let early = box.pagesWritten.load(ordering: .relaxed)
        XCTAssertLessThan(early, pages / 4, "\(early) pages queued for a client that reads nothing")
        var received = 0
        while true {
            let bytes = try c.readAvailable()
            if bytes.isEmpty { break }
            received += bytes.count
        }
        XCTAssertEqual(box.pagesWritten.load(ordering: .relaxed), pages)
        XCTAssertGreaterThan(received, pages * page.count)
    }
}

extension HostileClientTests {
    /// Thousands of tiny pipelined requests in one write, each answered inline: served one after
    /// another in a loop, never by nesting a call per request (which would run out of stack).
    func testThousandsOfPipelinedRequestsInOneWriteAreAllAnswered() throws {
        let live = try LiveServer(eventLoops: 1) { router in
            router.get("/h", execution: .inline) { _ in HTTPResponse(contentType: "text/plain", bytes: [0x6f, 0x6b]) }
        }
        defer { live.stop() }
        let c = try live.connect()
        let count = 5000
        let request = "GET /h HTTP/1.1\r\nHost: x\r\n\r\n"
        // Sending while reading: `send` touches only the descriptor, `readResponse` only the read buffer.
        nonisolated(unsafe) let sender = c
        DispatchQueue.global().async { try? sender.send(String(repeating: request, count: count)) }
        for _ in 0..<count { XCTAssertEqual(try c.readResponse().text, "ok") }
    }
}
