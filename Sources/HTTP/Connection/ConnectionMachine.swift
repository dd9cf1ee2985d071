/// The life of one connection as a pure state machine: bytes in, responses in, time passes;
/// it answers with what to do. It never touches a socket or a clock, so it is tested with neither.
///
/// Responses leave strictly in request order: each parsed request gets a sequence number and a
/// slot, and a slot is sent only when every earlier one has been.
struct ConnectionMachine {
    enum Event {
        /// Bytes were appended to `inbound`.
        case bytesReceived
        /// The peer closed its sending side (read returned 0).
        case inputClosed
        /// The response for request `sequence` is ready, from the loop or the worker pool.
        case responseReady(sequence: Int, PreparedResponse)
        /// A write could not finish; the rest waits for the socket.
        case outputBlocked
        /// A blocked write moved some bytes.
        case outputProgressed
        /// Everything queued has been handed to the kernel.
        case outputDrained
        /// The stream (SSE) body was closed by the application.
        case streamEnded
        /// Time passed; deadlines are checked.
        case timer
        /// The server is shutting down.
        case shutdown
        /// Requests already received may be read now (see `hasPendingRequests`); the connection
        /// sends this from its outermost level, one request at a time, so a thousand pipelined
        /// requests are a loop and never a thousand nested calls.
        case resume
        /// A streamed body's sink is open (`refusal` nil), or its route answered without reading
        /// the body (`refusal`).
        case bodyOpened(sequence: Int, refusal: PreparedResponse?)
        /// The sink has taken the piece handed to it.
        case bodyWritten(sequence: Int)
        /// The sink refused a piece: this answer goes out and the connection closes after it.
        case bodyFailed(sequence: Int, PreparedResponse)
    }

    enum Action {
        /// Run this request's route.
        case dispatch(Dispatch)
        /// Write `HTTP/1.1 100 Continue`.
        case sendContinue
        /// Queue this response (in order); `close` says it is the connection's last.
        case send(PreparedResponse, RequestRecord, close: Bool)
        /// Shut the write side and keep reading (discarding) until the peer closes or the linger time ends,
        /// so a client still sending does not get a reset that destroys the answer.
        case shutdownWrite
        /// Close the connection now.
        case close
        /// Open the streamed body of this request (`Route.bodyOpener`) on a worker.
        case openBody(Dispatch)
        /// Hand the next piece of the streamed body `sequence` to its sink.
        case writeBody(sequence: Int, [UInt8])
        /// Every piece is written: ask the sink for the answer to request `sequence`.
        case finishBody(sequence: Int)
    }

    enum Phase {
        /// Between requests or inside a head; `startedAt` is set from the head's first byte.
        case head(startedAt: Double?)
        /// Boxed: the reader is large, and every request switches over the phase a few times,
        /// which copied all of it each time when it was kept in place.
        indirect case body(BodyReader)
        /// No more requests will be read: an error, `Connection: close`, end of input, or shutdown.
        case stopped
        /// The head of a stream response is out; the connection lives until either side closes it.
        case streaming
        /// The write side is shut; waiting for the peer's end of input until `until`.
        case lingering(until: Double)
        case closed
    }

    struct BodyReader {
        var request: HTTPRequest
        var route: Route
        var record: RequestRecord
        var closeAfter: Bool
        var remaining: Int
        var chunked: ChunkedDecoder?
        var body: [UInt8] = []
        var startedAt: Double
        var continueOwed: Bool
        /// For a route that streams its body: how far it has got. nil for a body gathered in memory.
        var stream: BodyStream?
    }

    /// A streamed body (`Route.bodyOpener`) while it is read: at most one piece is with the sink
    /// and one more is gathered, so memory stays at two pieces whatever the body's size.
    struct BodyStream {
        enum State { case opening, open, failed }
        var state: State = .opening
        /// The request's sequence number: its slot, and the name of its sink in the connection.
        let sequence: Int
        /// A piece is with the sink now.
        var writing = false
        /// Every byte of the body has been received (some may still be on their way to the sink).
        var received = false
        /// When the body last moved (bytes arrived, or the sink took a piece): it times out only
        /// when the client stops sending, however long the whole body takes.
        var progressAt: Double
    }

    /// Bytes of a streamed body that had arrived but not reached the sink when the body ended
    /// early (a cut connection, a timeout): handed to the sink before it is abandoned, so an
    /// upload keeps every byte that arrived.
    var unwrittenPiece: [UInt8] = []

    /// Keeps what a streamed body has gathered, and what waits unread for it, as `unwrittenPiece`.
    mutating func keepUnwrittenPiece() {
        // Opening too: bytes sent before the route said where they go still arrived.
        guard case .body(var reader) = phase, let stream = reader.stream, stream.state != .failed else { return }
        if reader.chunked == nil && reader.remaining > 0 && inboundStart < inbound.count {
            let take = min(reader.remaining, inbound.count - inboundStart)
            reader.body.append(contentsOf: inbound[inboundStart..<(inboundStart + take)])
        }
        unwrittenPiece = reader.body
    }

    /// The size of the pieces a streamed body is handed to its sink in.
    static let streamPieceBytes = 512 * 1024

    struct Slot {
        var sequence: Int
        var record: RequestRecord
        var response: PreparedResponse?
        var closeAfter: Bool
    }

    let limits: HTTPLimits
    let responder: Responder
    let remoteAddress: String
    /// Most requests read ahead of their responses; further pipelined requests wait in `inbound`.
    let maxPipelined: Int
    /// Most requests dispatched and not answered yet (`HTTPLimits.maxRequestsInFlight`).
    let maxInFlight: Int
    /// How long a closing connection waits for the peer to finish sending.
    let lingerSeconds: Double

    /// The Host value of the last request read, which the parser checked.
    var validHost: String?
    /// The Host value of the last request admitted (`Router.allowedHosts`).
    var admittedHost: String?
    /// Received bytes; `inbound[inboundStart...]` is not parsed yet.
    var inbound: [UInt8] = []
    var inboundStart = 0
    var phase: Phase
    var slots: [Slot] = []
    var nextSequence = 0
    /// Requests dispatched whose answer has not come back.
    var inFlight = 0
    /// The unparsed bytes are only part of a head: nothing to do until more arrive.
    var awaitingBytes = false
    var outputPending = false
    var outputStalledSince: Double?
    /// Bytes queued for the socket and not written yet; kept by the connection.
    var unsentBytes = 0
    /// Bytes written to the socket so far; kept by the connection.
    var sentBytes = 0
    /// Since when output has waited for the client without a pause, and `sentBytes` then: a
    /// window of the send-rate floor.
    var outputWaitingSince: Double?
    var sentWhenWaitingBegan = 0
    /// Set when the client is dropped for not reading: the close then resets the connection, so
    /// the kernel does not go on holding (and trickling out) what was queued for it.
    var resetOnClose = false
    var idleSince: Double
    var closeWhenDrained = false
    var inputEnded = false
    /// Set when the connection stops reading with input possibly still on its way (an error,
    /// a refused body): closing then lingers so the answer is not lost to a reset.
    var lingerOnClose = false

    /// How long a closing connection lingers by default.
    static let defaultLingerSeconds = 2.0

    init(limits: HTTPLimits, responder: Responder, remoteAddress: String, now: Double, maxPipelined: Int = 16, maxInFlight: Int? = nil,
         lingerSeconds: Double = ConnectionMachine.defaultLingerSeconds) {
        self.limits = limits
        self.responder = responder
        self.remoteAddress = remoteAddress
        self.maxPipelined = maxPipelined
        self.maxInFlight = max(1, maxInFlight ?? limits.maxRequestsInFlight)
        self.lingerSeconds = lingerSeconds
        self.phase = .head(startedAt: nil)
        self.idleSince = now
    }

    /// Whether the connection wants bytes from the socket now (false pauses reading: backpressure).
    var wantsInput: Bool {
        switch phase {
        case .head: return !inputEnded && mayStartRequest
        case .body(let reader):
            guard !inputEnded && !outputPending && slots.count < maxPipelined else { return false }
            guard let stream = reader.stream else { return true }
            return stream.state == .open && !stream.received && reader.body.count < Self.streamPieceBytes
        case .streaming, .lingering: return true
        case .stopped, .closed: return false
        }
    }

    var isClosed: Bool {
        if case .closed = phase { return true }
        return false
    }

    /// Since when the connection has been waiting for its client without anything owed either
    /// way: idle between requests, silent since it was accepted, or inside a head that has not
    /// come whole (from its first byte); nil while a request is worked on or answered. The
    /// connection quiet the longest is the one closed to make room for a new one.
    var quietSince: Double? {
        guard slots.isEmpty, !outputPending, unsentBytes == 0, case .head(let startedAt) = phase else { return nil }
        return startedAt ?? idleSince
    }

    /// Whether the connection has read no request yet: then the head timeout runs from the
    /// accept, and a client that sends nothing holds its slot no longer than one that sends
    /// half a head. Between requests it is the idle timeout.
    var awaitingFirstRequest: Bool { nextSequence == 0 }

    /// How long the connection may wait for a request to begin.
    var waitLimit: Double { awaitingFirstRequest ? limits.headTimeoutSeconds : limits.idleTimeoutSeconds }

    /// Whether received bytes may hold a request that can start now (the one before it is
    /// answered); false once they have been found to be only part of a head.
    var hasPendingRequests: Bool {
        guard case .head = phase, inboundStart < inbound.count, !awaitingBytes else { return false }
        return mayStartRequest
    }

    /// Whether another request may be read now: the socket takes what is sent, the answers
    /// queued are under the output budget, and fewer than the most requests are in flight.
    var mayStartRequest: Bool {
        !outputPending && slots.count < maxPipelined && inFlight < maxInFlight && unsentBytes < limits.maxUnsentOutputBytes
    }

    /// Feeds one event; returns what to do, in order.
    mutating func event(_ event: Event, now: Double) -> [Action] {
        var actions: [Action] = []
        self.event(event, now: now, into: &actions)
        return actions
    }

    /// Feeds one event; appends what to do, in order, to `actions` (a buffer the caller reuses).
    mutating func event(_ event: Event, now: Double, into actions: inout [Action]) {
        if case .closed = phase { return }
        switch event {
        case .bytesReceived:
            awaitingBytes = false
            switch phase {
            case .streaming, .lingering:
                inbound.removeAll(keepingCapacity: true)
                inboundStart = 0
            default:
                advance(now: now, into: &actions)
            }
        case .inputClosed:
            inputEnded = true
            switch phase {
            case .streaming, .lingering:
                close(into: &actions)
            case .head:
                // Every complete request already received is still answered, in order; then,
                // or at once if there is none, the connection closes (see `endOfInput`).
                advance(now: now, into: &actions)
            case .body(var reader):
                // A streamed body that has all arrived is still written and answered.
                if let stream = reader.stream, stream.received {
                    reader.closeAfter = true
                    phase = .body(reader)
                    break
                }
                close(into: &actions)
            case .stopped:
                closeWhenDrained = true
                if slots.isEmpty && !outputPending { close(into: &actions) }
            case .closed:
                break
            }
        case .responseReady(let sequence, let response):
            guard let index = slots.firstIndex(where: { $0.sequence == sequence }) else { break }
            if slots[index].response == nil { inFlight -= 1 }
            slots[index].response = response
            emitReady(now: now, into: &actions)
        case .outputBlocked:
            outputPending = true
            if outputStalledSince == nil { outputStalledSince = now }
            if outputWaitingSince == nil {
                outputWaitingSince = now
                sentWhenWaitingBegan = sentBytes
            }
        case .outputProgressed:
            outputStalledSince = now
        case .outputDrained:
            outputPending = false
            outputStalledSince = nil
            outputWaitingSince = nil
            if closeWhenDrained && slots.isEmpty {
                finishClosing(now: now, into: &actions)
            } else {
                if slots.isEmpty, case .head(nil) = phase { idleSince = now }
                switch phase {
                case .head:
                    // Requests already received start from the connection's outermost level
                    // (`.resume`); here only an ended input is settled.
                    if inputEnded { advance(now: now, into: &actions) }
                default:
                    advance(now: now, into: &actions)
                }
            }
        case .streamEnded:
            if case .streaming = phase {
                closeWhenDrained = true
                if !outputPending { finishClosing(now: now, into: &actions) }
            }
        case .timer:
            checkDeadlines(now: now, into: &actions)
        case .resume:
            if case .head = phase { advance(now: now, into: &actions) }
        case .bodyOpened(let sequence, let refusal):
            bodyOpened(sequence: sequence, refusal: refusal, now: now, into: &actions)
        case .bodyWritten(let sequence):
            guard case .body(var reader) = phase, var stream = reader.stream, stream.sequence == sequence else { break }
            stream.writing = false
            stream.progressAt = now
            reader.stream = stream
            phase = .body(reader)
            advance(now: now, into: &actions)
        case .bodyFailed(let sequence, let response):
            guard case .body(let reader) = phase, reader.stream?.sequence == sequence else { break }
            answerStreamEarly(sequence: sequence, response, mustClose: true, now: now, into: &actions)
        case .shutdown:
            switch phase {
            case .streaming, .lingering:
                close(into: &actions)
            case .head where slots.isEmpty && !outputPending:
                close(into: &actions)
            case .body:
                close(into: &actions)
            default:
                // In-flight requests finish; their answers say `Connection: close`.
                phase = .stopped
                closeWhenDrained = true
                for index in slots.indices { slots[index].closeAfter = true }
                if slots.isEmpty && !outputPending { finishClosing(now: now, into: &actions) }
            }
        }
        compactInbound()
    }

    /// The earliest moment a deadline could fire, for the loop's timer; nil when none is armed.
    func nextDeadline() -> Double? {
        var deadline: Double?
        switch phase {
        case .head(let startedAt?): deadline = startedAt + limits.headTimeoutSeconds
        case .head(nil) where slots.isEmpty: deadline = idleSince + waitLimit
        case .body(let reader): deadline = bodyDeadline(reader)
        case .lingering(let until): deadline = until
        default: break
        }
        if let stalled = outputStalledSince { deadline = min(deadline ?? .infinity, stalled + limits.writeTimeoutSeconds) }
        if let waiting = outputWaitingSince { deadline = min(deadline ?? .infinity, waiting + limits.writeTimeoutSeconds) }
        return deadline
    }

    mutating func checkDeadlines(now: Double, into actions: inout [Action]) {
        if let stalled = outputStalledSince, now - stalled >= limits.writeTimeoutSeconds {
            resetOnClose = true
            close(into: &actions)
            return
        }
        if let waiting = outputWaitingSince, now - waiting >= limits.writeTimeoutSeconds {
            // Output has waited for the client a whole window: it must have taken at least the
            // floor's worth meanwhile, or it is only trickling to hold the connection (and the
            // memory of what is queued for it).
            let rate = Double(sentBytes - sentWhenWaitingBegan) / (now - waiting)
            if rate < Double(limits.minSendBytesPerSecond) {
                resetOnClose = true
                close(into: &actions)
                return
            }
            outputWaitingSince = now
            sentWhenWaitingBegan = sentBytes
        }
        switch phase {
        case .head(let startedAt?) where now - startedAt >= limits.headTimeoutSeconds:
            fail(RequestError(.requestTimeout, "The request head did not arrive within \(limits.headTimeoutSeconds) seconds."), record: nil, now: now, into: &actions)
        case .head(nil) where slots.isEmpty && !outputPending && now - idleSince >= waitLimit:
            close(into: &actions)
        case .body(let reader) where bodyDeadline(reader).map({ now >= $0 }) ?? false:
            fail(RequestError(.requestTimeout, "The request body did not arrive within \(limits.bodyTimeoutSeconds) seconds."), record: reader.record, now: now, into: &actions)
        case .lingering(let until) where now >= until:
            close(into: &actions)
        default:
            break
        }
    }

    /// When a body being read times out: a gathered body when its whole time is up; a streamed
    /// one when the client has sent nothing for that long (never while it waits for the server).
    func bodyDeadline(_ reader: BodyReader) -> Double? {
        guard let stream = reader.stream else { return reader.startedAt + limits.bodyTimeoutSeconds }
        guard stream.state == .open, !stream.received, reader.body.count < Self.streamPieceBytes else { return nil }
        return stream.progressAt + limits.bodyTimeoutSeconds
    }

    /// The sequence of the streamed body being read (its sink is open or opening), or nil.
    var streamingSequence: Int? {
        guard case .body(let reader) = phase, let stream = reader.stream, stream.state != .failed else { return nil }
        return stream.sequence
    }

    mutating func close(into actions: inout [Action]) {
        keepUnwrittenPiece()
        phase = .closed
        slots.removeAll()
        inFlight = 0
        actions.append(.close)
    }

    mutating func finishClosing(now: Double, into actions: inout [Action]) {
        if inputEnded || !lingerOnClose {
            close(into: &actions)
        } else {
            phase = .lingering(until: now + lingerSeconds)
            inbound.removeAll(keepingCapacity: true)
            inboundStart = 0
            actions.append(.shutdownWrite)
        }
    }

    mutating func compactInbound() {
        if inboundStart == inbound.count {
            if inboundStart > 0 { inbound.removeAll(keepingCapacity: true) }
            inboundStart = 0
        } else if inboundStart > 4096 {
            inbound.removeFirst(inboundStart)
            inboundStart = 0
        }
    }
}
