import XCTest
@testable import HTTP

/// The connection life cycle without sockets: bytes and time are fed by hand.
final class ConnectionMachineTests: XCTestCase {
    /// A compact view of an action, for comparing sequences.
    enum Step: Equatable {
        case dispatch(String, body: String)
        case sendContinue
        case send(Int, close: Bool)
        case shutdownWrite
        case close
        case openBody(String)
        case writeBody(Int)
        case finishBody
    }

    var limits: HTTPLimits {
        var limits = HTTPLimits()
        limits.headTimeoutSeconds = 5
        limits.idleTimeoutSeconds = 30
        limits.writeTimeoutSeconds = 10
        limits.bodyTimeoutSeconds = 20
        return limits
    }

    var router: Router {
        var router = Router()
        router.get("/a", execution: .inline) { _ in HTTPResponse() }
        router.get("/b") { _ in HTTPResponse() }
        router.post("/upload", maxBodyBytes: 10) { _ in HTTPResponse() }
        router.addStreaming(.PATCH, "/stream", maxBodyBytes: 1 << 30) { _ in .response(HTTPResponse()) }
        return router
    }

    func machine(now: Double = 0) -> ConnectionMachine {
        ConnectionMachine(limits: limits, responder: Responder(router: router), remoteAddress: "127.0.0.1", now: now, maxPipelined: 4, maxInFlight: 4, lingerSeconds: 2)
    }

    var sequences: [Int] = []

    func steps(_ actions: [ConnectionMachine.Action]) -> [Step] {
        actions.map { action in
            switch action {
            case .dispatch(let d):
                sequences.append(d.sequence)
                return .dispatch(d.request.path, body: String(decoding: d.request.body, as: UTF8.self))
            case .sendContinue: return .sendContinue
            case .send(let response, _, let close): return .send(response.status.rawValue, close: close)
            case .shutdownWrite: return .shutdownWrite
            case .close: return .close
            case .openBody(let d):
                sequences.append(d.sequence)
                return .openBody(d.request.path)
            case .writeBody(_, let piece): return .writeBody(piece.count)
            case .finishBody: return .finishBody
            }
        }
    }

    func receive(_ m: inout ConnectionMachine, _ text: String, at now: Double) -> [Step] {
        m.inbound.append(contentsOf: Array(text.utf8))
        return steps(m.event(.bytesReceived, now: now))
    }

    func ok(_ m: inout ConnectionMachine, _ sequence: Int, at now: Double, status: Int = 200) -> [Step] {
        steps(m.event(.responseReady(sequence: sequence, PreparedResponse(status: HTTPStatus(status), headers: [:], payload: .none, contentLength: 0)), now: now))
    }

    func testOneRequestKeepsTheConnectionOpen() {
        var m = machine()
        XCTAssertEqual(receive(&m, "GET /a HTTP/1.1\r\nHost: x\r\n\r\n", at: 1), [.dispatch("/a", body: "")])
        XCTAssertEqual(ok(&m, sequences[0], at: 1), [.send(200, close: false)])
        XCTAssertEqual(steps(m.event(.outputDrained, now: 1)), [])
        XCTAssertTrue(m.wantsInput)
        XCTAssertFalse(m.isClosed)
    }

    func testEveryRequestsHostIsCheckedThoughTheSameHostIsCheckedOnce() {
        var m = machine()
        XCTAssertEqual(receive(&m, "GET /a HTTP/1.1\r\nHost: photos.example:8080\r\n\r\n", at: 1), [.dispatch("/a", body: "")])
        XCTAssertEqual(m.validHost, "photos.example:8080")
        XCTAssertEqual(ok(&m, sequences[0], at: 1), [.send(200, close: false)])
        XCTAssertEqual(steps(m.event(.outputDrained, now: 1)), [])
        XCTAssertEqual(receive(&m, "GET /a HTTP/1.1\r\nHost: photos.example:8080\r\n\r\n", at: 2), [.dispatch("/a", body: "")])
        XCTAssertEqual(ok(&m, sequences[1], at: 2), [.send(200, close: false)])
        XCTAssertEqual(steps(m.event(.outputDrained, now: 2)), [])
        // Another host on the same connection is checked as the first was.
        XCTAssertEqual(receive(&m, "GET /a HTTP/1.1\r\nHost: photos example\r\n\r\n", at: 3), [.send(400, close: true)])
    }

    func testPipelinedAnswersLeaveInRequestOrder() {
        var m = machine()
        let text = "GET /b HTTP/1.1\r\nHost: x\r\n\r\nGET /a HTTP/1.1\r\nHost: x\r\n\r\nGET /missing HTTP/1.1\r\nHost: x\r\n\r\n"
        XCTAssertEqual(receive(&m, text, at: 0), [.dispatch("/b", body: ""), .dispatch("/a", body: "")])
        // The fast second answer waits for the slow first one; the 404 waits behind both.
        XCTAssertEqual(ok(&m, sequences[1], at: 0.1), [])
        XCTAssertEqual(ok(&m, sequences[0], at: 0.2), [.send(200, close: false), .send(200, close: false), .send(404, close: false)])
    }

    func testPipelineLimitPausesReading() {
        var m = machine()
        let one = "GET /b HTTP/1.1\r\nHost: x\r\n\r\n"
        XCTAssertEqual(receive(&m, String(repeating: one, count: 6), at: 0).count, 4)
        XCTAssertFalse(m.wantsInput)
        // An answer frees a place: the next request starts when the connection resumes.
        XCTAssertEqual(ok(&m, sequences[0], at: 0), [.send(200, close: false)])
        XCTAssertEqual(steps(m.event(.resume, now: 0)), [.dispatch("/b", body: "")])
    }

    func testConnectionCloseAnswersThenCloses() {
        var m = machine()
        XCTAssertEqual(receive(&m, "GET /a HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\nGET /a HTTP/1.1\r\nHost: x\r\n\r\n", at: 0),
                       [.dispatch("/a", body: "")])
        XCTAssertEqual(ok(&m, sequences[0], at: 0), [.send(200, close: true)])
        XCTAssertEqual(steps(m.event(.outputDrained, now: 0)), [.close])

        var old = machine()
        _ = receive(&old, "GET /a HTTP/1.0\r\n\r\n", at: 0)
        XCTAssertEqual(ok(&old, sequences[1], at: 0), [.send(200, close: true)])
        XCTAssertEqual(steps(old.event(.outputDrained, now: 0)), [.close])
    }

    func testRefusedBodyLingersUntilThePeerClosesOrTheDeadline() {
        var m = machine()
        XCTAssertEqual(receive(&m, "POST /nowhere HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nab", at: 0), [.send(404, close: true)])
        XCTAssertEqual(steps(m.event(.outputDrained, now: 0)), [.shutdownWrite])
        XCTAssertTrue(m.wantsInput, "keeps reading, to discard")
        XCTAssertEqual(receive(&m, "cde", at: 0.5), [])
        XCTAssertEqual(steps(m.event(.inputClosed, now: 0.6)), [.close])

        var stubborn = machine()
        _ = receive(&stubborn, "GET / HTTP/9.0\r\n\r\n", at: 0)
        XCTAssertEqual(steps(stubborn.event(.outputDrained, now: 0)), [.shutdownWrite])
        XCTAssertEqual(steps(stubborn.event(.timer, now: 1)), [])
        XCTAssertEqual(steps(stubborn.event(.timer, now: 2.1)), [.close])
    }

    func testHTTP10KeepAliveStaysOpen() {
        var m = machine()
        _ = receive(&m, "GET /a HTTP/1.0\r\nConnection: keep-alive\r\n\r\n", at: 0)
        XCTAssertEqual(ok(&m, sequences[0], at: 0), [.send(200, close: false)])
    }

    func testHeadDeadlineAnswers408AndCloses() {
        var m = machine(now: 10)
        XCTAssertEqual(receive(&m, "GET /a HTTP/1.1\r\nHo", at: 10), [])
        XCTAssertEqual(steps(m.event(.timer, now: 14.9)), [])
        XCTAssertEqual(receive(&m, "st: x\r\n", at: 14.95), [])
        XCTAssertEqual(steps(m.event(.timer, now: 15.0)), [.send(408, close: true)])
        XCTAssertFalse(m.wantsInput)
    }

    func testNextDeadlineFollowsThePhase() {
        var m = machine(now: 0)
        XCTAssertEqual(m.nextDeadline(), 5, "a new connection has the head timeout to send its first head")
        _ = receive(&m, "GET /a HTTP/1.1\r\n", at: 3)
        XCTAssertEqual(m.nextDeadline(), 5, "the first head's deadline runs from the accept, not from its first byte")
        _ = receive(&m, "Host: x\r\n\r\n", at: 4)
        XCTAssertNil(m.nextDeadline(), "nothing to time while the handler runs")
        _ = ok(&m, sequences[0], at: 12)
        _ = m.event(.outputBlocked, now: 12)
        XCTAssertEqual(m.nextDeadline(), 22, "stalled write")
        _ = m.event(.outputDrained, now: 13)
        XCTAssertEqual(m.nextDeadline(), 43, "idle between requests: the idle timeout")
        _ = receive(&m, "GET /b HTTP/1.1\r\n", at: 40)
        XCTAssertEqual(m.nextDeadline(), 45, "a later head's deadline runs from its first byte")
    }

    /// A connection that never sends a byte is closed after the head timeout, not kept for the
    /// idle timeout: 41 addresses × 250 such connections held every slot for a minute.
    func testASilentConnectionIsClosedAfterTheHeadTimeout() {
        var m = machine(now: 100)
        XCTAssertEqual(m.quietSince, 100)
        XCTAssertEqual(steps(m.event(.timer, now: 104.9)), [])
        XCTAssertEqual(steps(m.event(.timer, now: 105)), [.close])
    }

    /// A client trickling its first head a byte at a time gets the head timeout from the accept.
    func testATrickledFirstHeadTimesOutFromTheAccept() {
        var m = machine(now: 0)
        for (i, byte) in "GET /a HTTP/1.1\r\n".enumerated() {
            XCTAssertEqual(receive(&m, String(byte), at: Double(i) * 0.25), [])
        }
        XCTAssertEqual(m.quietSince, 0, "quiet since the accept: the first to go when the server is full")
        XCTAssertEqual(steps(m.event(.timer, now: 5)), [.send(408, close: true)])
    }

    func testQuietSinceIsNilWhileARequestIsWorkedOn() {
        var m = machine(now: 0)
        _ = receive(&m, "GET /a HTTP/1.1\r\nHost: x\r\n\r\n", at: 1)
        XCTAssertNil(m.quietSince)
        _ = ok(&m, sequences[0], at: 2)
        _ = m.event(.outputDrained, now: 2)
        XCTAssertEqual(m.quietSince, 2)
    }

    func testIdleConnectionClosesAfterTheIdleLimit() {
        var m = machine(now: 0)
        _ = receive(&m, "GET /a HTTP/1.1\r\nHost: x\r\n\r\n", at: 1)
        _ = ok(&m, sequences[0], at: 1)
        _ = m.event(.outputDrained, now: 2)
        XCTAssertEqual(steps(m.event(.timer, now: 31)), [])
        XCTAssertEqual(m.nextDeadline(), 32)
        XCTAssertEqual(steps(m.event(.timer, now: 32)), [.close])
    }

    func testNoIdleTimeoutWhileAWorkerIsBusy() {
        var m = machine()
        _ = receive(&m, "GET /b HTTP/1.1\r\nHost: x\r\n\r\n", at: 0)
        XCTAssertEqual(steps(m.event(.timer, now: 100)), [])
        XCTAssertEqual(ok(&m, sequences[0], at: 100), [.send(200, close: false)])
    }

    func testStalledWriteIsDropped() {
        var m = machine()
        _ = receive(&m, "GET /a HTTP/1.1\r\nHost: x\r\n\r\n", at: 0)
        _ = ok(&m, sequences[0], at: 0)
        _ = m.event(.outputBlocked, now: 1)
        XCTAssertFalse(m.wantsInput)
        m.sentBytes += 100_000
        _ = m.event(.outputProgressed, now: 5)
        XCTAssertEqual(steps(m.event(.timer, now: 14)), [])
        XCTAssertEqual(steps(m.event(.timer, now: 15)), [.close])
    }

    func testBodyByContentLengthAndBodyDeadline() {
        var m = machine()
        XCTAssertEqual(receive(&m, "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhe", at: 0), [])
        XCTAssertEqual(receive(&m, "llo", at: 1), [.dispatch("/upload", body: "hello")])

        var slow = machine()
        _ = receive(&slow, "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhe", at: 0)
        XCTAssertEqual(steps(slow.event(.timer, now: 20)), [.send(408, close: true)])
    }

    func testChunkedBodyIsDecoded() {
        var m = machine()
        XCTAssertEqual(receive(&m, "POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n", at: 0), [])
        XCTAssertEqual(receive(&m, "2\r\nde\r\n0\r\nX-Trailer: 1\r\n\r\n", at: 0), [.dispatch("/upload", body: "abcde")])
    }

    func testTooLargeBodyIs413BeforeItIsRead() {
        var m = machine()
        XCTAssertEqual(receive(&m, "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 11\r\nExpect: 100-continue\r\n\r\n", at: 0),
                       [.send(413, close: true)])
        var chunked = machine()
        XCTAssertEqual(receive(&chunked, "POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n8\r\n12345678\r\n8\r\n", at: 0),
                       [.send(413, close: true)])
    }

    func testContinueOnlyWhenTheRouteTakesTheBody() {
        var m = machine()
        XCTAssertEqual(receive(&m, "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nExpect: 100-continue\r\n\r\n", at: 0), [.sendContinue])
        XCTAssertEqual(receive(&m, "hi", at: 0), [.dispatch("/upload", body: "hi")])

        var missing = machine()
        XCTAssertEqual(receive(&missing, "POST /nowhere HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nExpect: 100-continue\r\n\r\n", at: 0),
                       [.send(404, close: true)])
        var wrongMethod = machine()
        XCTAssertEqual(receive(&wrongMethod, "POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nExpect: 100-continue\r\n\r\n", at: 0),
                       [.send(405, close: true)])
    }

    func testParseErrorIsAnsweredAfterEarlierRequests() {
        var m = machine()
        XCTAssertEqual(receive(&m, "GET /b HTTP/1.1\r\nHost: x\r\n\r\nGET / HTTP/2.0\r\nHost: x\r\n\r\n", at: 0), [.dispatch("/b", body: "")])
        XCTAssertEqual(ok(&m, sequences[0], at: 0), [.send(200, close: false), .send(505, close: true)])
    }

    func testEndOfInputFinishesPendingAnswersThenCloses() {
        var m = machine()
        _ = receive(&m, "GET /b HTTP/1.1\r\nHost: x\r\n\r\n", at: 0)
        XCTAssertEqual(steps(m.event(.inputClosed, now: 0)), [])
        // The last answer owed says `Connection: close`: no request can follow it.
        XCTAssertEqual(ok(&m, sequences[0], at: 0), [.send(200, close: true)])
        XCTAssertEqual(steps(m.event(.outputDrained, now: 0)), [.close])
    }

    func testShutdownClosesIdleAndFinishesInFlight() {
        var idle = machine()
        XCTAssertEqual(steps(idle.event(.shutdown, now: 0)), [.close])

        var busy = machine()
        _ = receive(&busy, "GET /b HTTP/1.1\r\nHost: x\r\n\r\n", at: 0)
        XCTAssertEqual(steps(busy.event(.shutdown, now: 0)), [])
        XCTAssertEqual(ok(&busy, sequences[0], at: 1), [.send(200, close: true)])
    }

    func testStreamResponseSwitchesToStreaming() {
        var m = machine()
        _ = receive(&m, "GET /a HTTP/1.1\r\nHost: x\r\n\r\n", at: 0)
        let stream = PreparedResponse(status: .ok, headers: [:], payload: .stream({ _ in }), contentLength: nil)
        XCTAssertEqual(steps(m.event(.responseReady(sequence: sequences[0], stream), now: 0)), [.send(200, close: true)])
        XCTAssertEqual(steps(m.event(.outputDrained, now: 0)), [])
        XCTAssertEqual(steps(m.event(.timer, now: 1000)), [], "no idle timeout while streaming")
        XCTAssertEqual(steps(m.event(.inputClosed, now: 1000)), [.close])
    }

    // MARK: - Streamed bodies

    func testAStreamedBodyIsReadOnlyOnceItsSinkIsOpenAndAtMostAPieceAhead() {
        var m = machine()
        let piece = ConnectionMachine.streamPieceBytes
        let total = piece * 2 + 100
        XCTAssertEqual(receive(&m, "PATCH /stream HTTP/1.1\r\nHost: a\r\nContent-Length: \(total)\r\n\r\n", at: 0), [.openBody("/stream")])
        let sequence = sequences.last!
        XCTAssertFalse(m.wantsInput, "nothing of the body is read before the route says where it goes")
        m.inbound.append(contentsOf: [UInt8](repeating: 1, count: piece + 10))
        XCTAssertEqual(steps(m.event(.bytesReceived, now: 0)), [])
        XCTAssertEqual(steps(m.event(.bodyOpened(sequence: sequence, refusal: nil), now: 1)), [.writeBody(piece)])
        XCTAssertTrue(m.wantsInput, "the next piece is gathered while one is written")
        m.inbound.append(contentsOf: [UInt8](repeating: 2, count: piece))
        XCTAssertEqual(steps(m.event(.bytesReceived, now: 1)), [])
        XCTAssertFalse(m.wantsInput, "a piece written and a piece gathered: reading pauses")
        XCTAssertNil(m.nextDeadline(), "waiting for the disk is not the client's delay")
        XCTAssertEqual(steps(m.event(.bodyWritten(sequence: sequence), now: 2)), [.writeBody(piece)])
        XCTAssertEqual(m.nextDeadline(), 2 + limits.bodyTimeoutSeconds, "the body times out from its last progress")
        m.inbound.append(contentsOf: [UInt8](repeating: 3, count: 90))
        XCTAssertEqual(steps(m.event(.bytesReceived, now: 2)), [])
        XCTAssertNil(m.nextDeadline(), "all received: only the server is awaited")
        XCTAssertEqual(steps(m.event(.bodyWritten(sequence: sequence), now: 3)), [.writeBody(100)])
        XCTAssertEqual(steps(m.event(.bodyWritten(sequence: sequence), now: 3)), [.finishBody])
        XCTAssertEqual(ok(&m, sequence, at: 4, status: 204), [.send(204, close: false)])
        XCTAssertTrue(m.wantsInput)
    }

    func testARefusedStreamAnswersWithoutReadingAndCloses() {
        var m = machine()
        XCTAssertEqual(receive(&m, "PATCH /stream HTTP/1.1\r\nHost: a\r\nContent-Length: 5000\r\nExpect: 100-continue\r\n\r\n", at: 0),
                       [.openBody("/stream")])
        let refusal = PreparedResponse(status: .conflict, headers: [:], payload: .none, contentLength: 0)
        XCTAssertEqual(steps(m.event(.bodyOpened(sequence: sequences.last!, refusal: refusal), now: 0)), [.send(409, close: true)])
        XCTAssertFalse(m.wantsInput)
    }

    func testAnOpenStreamSendsContinueAndAFailedPieceEndsIt() {
        var m = machine()
        XCTAssertEqual(receive(&m, "PATCH /stream HTTP/1.1\r\nHost: a\r\nContent-Length: 10\r\nExpect: 100-continue\r\n\r\n", at: 0),
                       [.openBody("/stream")])
        let sequence = sequences.last!
        XCTAssertEqual(steps(m.event(.bodyOpened(sequence: sequence, refusal: nil), now: 0)), [.sendContinue])
        XCTAssertEqual(m.streamingSequence, sequence)
        XCTAssertEqual(receive(&m, "0123456789", at: 1), [.writeBody(10)])
        let failure = PreparedResponse(status: .insufficientStorage, headers: [:], payload: .none, contentLength: 0)
        XCTAssertEqual(steps(m.event(.bodyFailed(sequence: sequence, failure), now: 1)), [.send(507, close: true)])
        XCTAssertNil(m.streamingSequence, "the connection abandons the sink")
    }

    func testAStreamThatStallsTimesOutAndAnEmptyOneFinishesAtOnce() {
        var m = machine()
        _ = receive(&m, "PATCH /stream HTTP/1.1\r\nHost: a\r\nContent-Length: 10\r\n\r\n", at: 0)
        _ = m.event(.bodyOpened(sequence: sequences.last!, refusal: nil), now: 0)
        XCTAssertEqual(receive(&m, "01234", at: 1), [])
        XCTAssertEqual(steps(m.event(.timer, now: 1 + limits.bodyTimeoutSeconds)), [.send(408, close: true)])

        var empty = machine()
        XCTAssertEqual(receive(&empty, "PATCH /stream HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\n\r\n", at: 0), [.openBody("/stream")])
        XCTAssertEqual(steps(empty.event(.bodyOpened(sequence: sequences.last!, refusal: nil), now: 0)), [.finishBody])
    }

    func testAChunkedStreamIsDecodedIntoPieces() {
        var m = machine()
        _ = receive(&m, "PATCH /stream HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n", at: 0)
        let sequence = sequences.last!
        _ = m.event(.bodyOpened(sequence: sequence, refusal: nil), now: 0)
        XCTAssertEqual(receive(&m, "5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n", at: 1), [.writeBody(11)])
        XCTAssertEqual(steps(m.event(.bodyWritten(sequence: sequence), now: 1)), [.finishBody])
    }
}
