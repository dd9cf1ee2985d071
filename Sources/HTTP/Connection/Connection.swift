import POSIX

/// One client socket on its event loop: moves bytes between the socket and the connection's
/// state machine and carries out the machine's actions. Used only on its loop's thread.
// @unchecked Sendable: used only on its loop's thread (work handed to the pool comes back through `EventLoop.execute`).
final class Connection: @unchecked Sendable {
    enum Segment {
        case bytes([UInt8], offset: Int)
        case file(OpenFile, offset: Int, remaining: Int)
        /// A cached answer's field lines and, unless for HEAD, its body, `offset` bytes in: written
        /// from the answer, which this one reference keeps alive, without retaining its arrays.
        case encoded(EncodedResponse, withBody: Bool, offset: Int)
        /// The response before this marker is fully handed to the kernel: log it.
        case completed(RequestRecord, HTTPStatus, bytes: Int)
    }

    let fd: Int32
    /// Who the client is when clients are counted: its address, or its /64 for IPv6 (`ClientKey`).
    let clientKey: String
    /// The loop closes every connection before it goes away, so the reference needs no counting.
    unowned(unsafe) let loop: EventLoop
    var machine: ConnectionMachine
    /// Bytes, file ranges and log markers waiting for the socket, in order; `outputHead` is the first unsent.
    var output: [Segment] = []
    var outputHead = 0
    private var readable = true
    /// The peer shut its sending side (EPOLLRDHUP): the end of input is already in the socket,
    /// and under edge-triggered epoll no later event will say so again, so reading goes on past
    /// a short read until it returns 0.
    private var peerClosed = false
    /// The socket said EAGAIN; EPOLLOUT will resume the flush.
    var blocked = false
    private var depth = 0
    /// Set while the outermost `apply` starts the requests already received, one by one.
    private var resuming = false
    private(set) var isClosed = false
    private var stream: StreamChannel?
    /// Emptied action lists kept for reuse, one per nesting level of `apply`: every request
    /// passes through two of them, and a fresh array each time was an allocation each.
    private var spareActions: [[ConnectionMachine.Action]] = []
    /// The sink of the streamed body being read, from its opening until its finish is handed to
    /// a worker; abandoned if the body ends any other way.
    private var body: OpenBody?
    /// A piece is with a worker being written: an abandon waits for it, so the sink sees its
    /// pieces in order.
    private var writing = false
    private var abandonAfterWrite: OpenBody?

    struct OpenBody {
        let sequence: Int
        let sink: any RequestBodySink
        let request: HTTPRequest
        let lane: WorkLane
    }
    /// Work on the pool for this connection, cancelled if it closes first.
    private var offloaded: [Offloaded] = []
    /// Whether the client has been sent an interim answer to learn whether it is still there.
    private var probed = false

    struct Offloaded {
        var sequence: Int
        var ticket: WorkTicket
        /// Worth stopping when the client has gone (`WorkOrder.abandonable`); HTTP/1.1 only,
        /// since an HTTP/1.0 client may not be sent an interim answer.
        var probesClient: Bool
    }

    init(fd: Int32, remoteAddress: String, clientKey: String? = nil, loop: EventLoop) {
        self.fd = fd
        self.clientKey = clientKey ?? ClientKey.of(remoteAddress)
        self.loop = loop
        self.machine = ConnectionMachine(limits: loop.context.limits, responder: loop.context.responder,
                                         remoteAddress: remoteAddress, now: loop.now)
    }

    func handle(events: UInt32) {
        // An error is a reset (or worse): nothing more can be read or sent.
        if events & EpollFlags.error != 0 || (events & EpollFlags.hangUp != 0 && events & EpollFlags.readable == 0) {
            close()
            return
        }
        if events & EpollFlags.writable != 0 && blocked { flush() }
        if events & (EpollFlags.readable | EpollFlags.peerClosed) != 0 {
            if events & EpollFlags.peerClosed != 0 { peerClosed = true }
            readable = true
            pump()
            // While a request is worked on nothing more is read, so the end of input is known
            // from the event alone.
            if peerClosed { probeIfAbandoned() }
        }
    }

    func tick() { apply(.timer) }

    func shutdown() { apply(.shutdown) }

    /// Reads while the socket has bytes and the machine wants them.
    private func pump() {
        while readable && !isClosed && machine.wantsInput {
            let result: IOResult<Int>
            do { result = try Socket.read(fd, into: loop.readBuffer) } catch {
                close()
                return
            }
            switch result {
            case .wouldBlock:
                readable = false
            case .done(0):
                readable = false
                apply(.inputClosed)
                probeIfAbandoned()
            case .done(let count):
                // A short read drained the socket; edge-triggered epoll will report new bytes
                // (but not an end of input it has reported already).
                if count < loop.readBuffer.count && !peerClosed { readable = false }
                machine.inbound.append(contentsOf: UnsafeRawBufferPointer(rebasing: loop.readBuffer[0..<count]))
                apply(.bytesReceived)
            }
        }
    }

    func apply(_ event: ConnectionMachine.Event) {
        guard !isClosed else { return }
        depth += 1
        var actions = spareActions.popLast() ?? []
        machine.event(event, now: loop.now, into: &actions)
        // Moved out of the array one by one: iterating would copy each action, retaining every
        // string and buffer of its request or response once more, only to release them after.
        actions.reverse()
        while let action = actions.popLast() { perform(action) }
        spareActions.append(actions)
        depth -= 1
        if let body, machine.streamingSequence != body.sequence {
            // The body ended without its finish (an error, a timeout): the sink keeps what it has.
            self.body = nil
            abandon(body)
        }
        if depth == 0 && !isClosed {
            if outputHead < output.count && !blocked { flush() }
            if !resuming {
                resuming = true
                while !isClosed && machine.hasPendingRequests { apply(.resume) }
                resuming = false
            }
            if readable && machine.wantsInput { pump() }
        }
    }

    /// Takes the action over: binding its payload then moves it instead of retaining every
    /// string of a request or response once more.
    private func perform(_ action: consuming ConnectionMachine.Action) {
        guard !isClosed else { return }
        switch consume action {
        case .dispatch(let dispatch):
            run(dispatch)
        case .sendContinue:
            output.append(.bytes(ResponseHeadEncoder.continueLine, offset: 0))
            machine.unsentBytes += ResponseHeadEncoder.continueLine.count
        case .send(let response, let record, let close):
            let keepAliveForHTTP10 = record.http10 && !close
            if let (answer, withBody) = response.sentAsEncoded,
               let prefix = loop.encoder.readyPrefix(for: response, close: close, keepAliveForHTTP10: keepAliveForHTTP10) {
                // A cached answer as it is (nearly every hot tile and static file): the loop's
                // prefix, then the answer's own bytes; no head is built.
                output.append(.bytes(prefix, offset: 0))
                output.append(.encoded(answer, withBody: withBody, offset: 0))
                let bytes = prefix.count + answer.wireCount(withBody: withBody)
                output.append(.completed(record, .ok, bytes: bytes))
                machine.unsentBytes += bytes
                return
            }
            let head = loop.encoder.encode(response, close: close, keepAliveForHTTP10: keepAliveForHTTP10)
            output.append(.bytes(head, offset: 0))
            switch response.payload {
            case .none: break
            case .bytes(let bytes): if !bytes.isEmpty { output.append(.bytes(bytes, offset: 0)) }
            case .file(let file, let offset, let length): if length > 0 { output.append(.file(file, offset: offset, remaining: length)) }
            case .stream(let start): startStream(start)
            }
            output.append(.completed(record, response.status, bytes: head.count + response.payloadLength))
            machine.unsentBytes += head.count + response.payloadLength
        case .shutdownWrite:
            Socket.shutdownWrite(fd)
        case .close:
            close()
        case .openBody(let dispatch):
            openBody(dispatch)
        case .writeBody(let sequence, let piece):
            writeBody(sequence, piece)
        case .finishBody(let sequence):
            finishBody(sequence)
        }
    }

    /// Asks the route where a streamed body goes, on a worker of its lane.
    private func openBody(_ dispatch: consuming Dispatch) {
        let request = dispatch.request
        let sequence = dispatch.sequence
        let lane = dispatch.route.lane
        let route = dispatch.route
        guard let open = route.bodyOpener else { return }
        let context = loop.context
        let loop = self.loop
        context.pool.submit(lane: lane, group: clientKey, caps: []) { [self] in
            let start = context.responder.openBody(request, route: route, open: open)
            switch start {
            case .sink(let sink):
                loop.execute { [self] in self.bodyOpened(OpenBody(sequence: sequence, sink: sink, request: request, lane: lane)) }
            case .response(let response):
                let prepared = PreparedResponse(response, for: request)
                loop.execute { [self] in self.apply(.bodyOpened(sequence: sequence, refusal: prepared)) }
            }
        }
    }

    private func bodyOpened(_ opened: OpenBody) {
        guard !isClosed, machine.streamingSequence == opened.sequence else {
            // The client left while the route was deciding.
            abandon(opened)
            return
        }
        body = opened
        apply(.bodyOpened(sequence: opened.sequence, refusal: nil))
    }

    private func writeBody(_ sequence: Int, _ piece: [UInt8]) {
        guard let body, body.sequence == sequence else { return }
        let context = loop.context
        let loop = self.loop
        writing = true
        context.pool.submit(lane: body.lane, group: clientKey, caps: []) { [self] in
            do {
                try body.sink.write(piece)
                loop.execute { [self] in self.pieceWritten(.bodyWritten(sequence: sequence)) }
            } catch {
                let prepared = PreparedResponse(context.responder.response(for: error, request: body.request), for: body.request)
                loop.execute { [self] in self.pieceWritten(.bodyFailed(sequence: sequence, prepared)) }
            }
        }
    }

    private func pieceWritten(_ event: ConnectionMachine.Event) {
        writing = false
        if let waiting = abandonAfterWrite {
            abandonAfterWrite = nil
            abandon(waiting)
        }
        apply(event)
    }

    private func finishBody(_ sequence: Int) {
        guard let body, body.sequence == sequence else { return }
        self.body = nil
        let context = loop.context
        let loop = self.loop
        context.pool.submit(lane: body.lane, group: clientKey, caps: []) { [self] in
            let prepared = PreparedResponse(context.responder.run({ try body.sink.finish() }, for: body.request), for: body.request)
            loop.execute { [self] in self.apply(.responseReady(sequence: sequence, prepared)) }
        }
    }

    /// Tells a sink its body has ended early, on a worker, after the piece being written and
    /// with the bytes that arrived since (it keeps what it has and writes down how far it got).
    private func abandon(_ body: OpenBody) {
        if writing {
            abandonAfterWrite = body
            return
        }
        let rest = machine.unwrittenPiece
        machine.unwrittenPiece = []
        loop.context.pool.submit(lane: body.lane, group: clientKey, caps: []) {
            if !rest.isEmpty { try? body.sink.write(rest) }
            body.sink.abandon()
        }
    }

    /// Runs a route: inline handlers here, offloaded work on the pool with the answer posted back.
    private func run(_ dispatch: consuming Dispatch) {
        // The request is read in place; only work sent to the pool takes a copy of it.
        let sequence = dispatch.sequence
        switch loop.context.responder.reply(to: dispatch.request, route: dispatch.route) {
        case .response(let response):
            apply(.responseReady(sequence: sequence, PreparedResponse(response, for: dispatch.request)))
        case .encoded(let encoded):
            apply(.responseReady(sequence: sequence, PreparedResponse(encoded, for: dispatch.request)))
        case .offload(let work):
            offload(WorkOrder { _ in try work() }, dispatch: dispatch)
        case .offloadCapped(let caps, let work):
            offload(WorkOrder(caps: caps) { _ in try work() }, dispatch: dispatch)
        case .order(let order):
            offload(order, dispatch: dispatch)
        }
    }

    /// Runs the order's work in its lane (the route's unless it names one), queued fairly under
    /// this client, and posts the answer back; a refusal of the lane is answered at once.
    private func offload(_ order: WorkOrder, dispatch: borrowing Dispatch) {
        let request = dispatch.request
        let sequence = dispatch.sequence
        let context = loop.context
        let loop = self.loop
        let ticket = WorkTicket()
        let work = order.work
        let refusalHeaders = order.refusalHeaders
        let refusal = context.pool.submit(lane: order.lane ?? dispatch.route.lane, group: clientKey, caps: order.caps, cost: order.cost,
                                          ticket: ticket, expired: { [self] refusal in
            let prepared = PreparedResponse(Self.refused(refusal, headers: refusalHeaders), for: request)
            loop.execute { [self] in self.finished(sequence: sequence, prepared) }
        }) { [self] in
            let prepared = PreparedResponse(context.responder.run({ try work(ticket) }, for: request), for: request)
            loop.execute { [self] in self.finished(sequence: sequence, prepared) }
        }
        if let refusal {
            apply(.responseReady(sequence: sequence, PreparedResponse(Self.refused(refusal, headers: refusalHeaders), for: request)))
            return
        }
        offloaded.append(Offloaded(sequence: sequence, ticket: ticket, probesClient: order.abandonable && request.version.minor >= 1))
    }

    /// A lane's refusal as problem+json with `Retry-After` (and the order's own fields).
    static func refused(_ refusal: WorkRefusal, headers: HTTPHeaders) -> HTTPResponse {
        var headers = headers
        headers.set("Retry-After", String(refusal.retryAfterSeconds))
        return .problem(refusal.status, detail: refusal.detail, headers: headers)
    }

    /// The answer of offloaded work has come back to the loop.
    private func finished(sequence: Int, _ prepared: PreparedResponse) {
        offloaded.removeAll { $0.sequence == sequence }
        apply(.responseReady(sequence: sequence, prepared))
    }

    /// The client's input has ended while work worth stopping runs for it. A client that only
    /// shut its sending side still reads; one that closed answers the interim `100 Continue`
    /// with a reset, which closes the connection and so cancels the work. Sent once, only ahead
    /// of the running request's own answer (every earlier answer has been queued already).
    private func probeIfAbandoned() {
        guard !isClosed, !probed, offloaded.contains(where: \.probesClient) else { return }
        probed = true
        output.append(.bytes(ResponseHeadEncoder.continueLine, offset: 0))
        machine.unsentBytes += ResponseHeadEncoder.continueLine.count
        if !blocked { flush() }
    }

    private func startStream(_ start: @escaping @Sendable (ResponseStream) -> Void) {
        let loop = self.loop
        let channel = StreamChannel(schedule: { [self] in loop.execute { [self] in self.drainStream() } })
        stream = channel
        loop.context.pool.submit { start(channel) }
    }

    private func drainStream() {
        guard let stream, !isClosed else { return }
        let (chunks, closeRequested) = stream.take()
        for chunk in chunks where !chunk.isEmpty {
            output.append(.bytes(chunk, offset: 0))
            machine.unsentBytes += chunk.count
        }
        if machine.unsentBytes > loop.context.limits.maxStreamBacklogBytes {
            // The client takes events slower than they come: rather than hold an ever longer
            // backlog for it, close; it reconnects and resumes from the last event it saw.
            machine.resetOnClose = true
            close()
            return
        }
        if !blocked { flush() }
        notifyStreamIfDrained()
        if closeRequested {
            // The application ended the stream: it is closed for it now, whatever the socket still does.
            stream.markClosed()
            apply(.streamEnded)
        }
    }

    /// Tells a stream waiting to write more (a paged replay) that the queue has emptied enough.
    func notifyStreamIfDrained() {
        guard let stream, !isClosed, machine.unsentBytes <= Self.streamLowWaterBytes else { return }
        stream.runDrainWaiters()
    }

    /// Queued stream bytes at or below which a stream waiting for the socket to drain is told to go on.
    static let streamLowWaterBytes = 64 * 1024

    /// Closes the socket at once and forgets the connection.
    func close() {
        guard !isClosed else { return }
        isClosed = true
        loop.epoll.remove(fd)
        if machine.resetOnClose { Socket.setResetOnClose(fd) }
        Socket.close(fd)
        output.removeAll()
        if let body {
            self.body = nil
            abandon(body)
        }
        stream?.markClosed()
        stream = nil
        // Nobody will read these answers: queued work is dropped, running work told to stop.
        let abandoned = offloaded
        offloaded.removeAll()
        for work in abandoned { work.ticket.cancel() }
        loop.removed(self)
    }
}
