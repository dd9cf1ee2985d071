#if canImport(Glibc)
import Glibc
#endif

/// One client socket on its event loop: moves bytes between the socket and the connection's
/// state machine and carries out the machine's actions. Used only on its loop's thread.
final class Connection: @unchecked Sendable {
    enum Segment {
        case bytes([UInt8], offset: Int)
        case file(OpenFile, offset: Int, remaining: Int)
        /// The response before this marker is fully handed to the kernel: log it.
        case completed(RequestRecord, HTTPStatus, bytes: Int)
    }

    let fd: Int32
    /// The loop closes every connection before it goes away, so the reference needs no counting.
    unowned(unsafe) let loop: EventLoop
    var machine: ConnectionMachine
    private var output: [Segment] = []
    private var outputHead = 0
    private var readable = true
    private var blocked = false
    private var depth = 0
    private(set) var isClosed = false
    private var stream: StreamChannel?

    init(fd: Int32, remoteAddress: String, loop: EventLoop) {
        self.fd = fd
        self.loop = loop
        self.machine = ConnectionMachine(limits: loop.context.limits, router: loop.context.router,
                                         remoteAddress: remoteAddress, now: loop.now)
    }

    func handle(events: UInt32) {
        if events & (EpollFlags.error | EpollFlags.hangUp) != 0 && events & EpollFlags.readable == 0 {
            close()
            return
        }
        if events & EpollFlags.writable != 0 && blocked { flush() }
        if events & (EpollFlags.readable | EpollFlags.peerClosed) != 0 {
            readable = true
            pump()
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
            case .done(let count):
                // A short read drained the socket; edge-triggered epoll will report new bytes.
                if count < loop.readBuffer.count { readable = false }
                machine.inbound.append(contentsOf: UnsafeRawBufferPointer(rebasing: loop.readBuffer[0..<count]))
                apply(.bytesReceived)
            }
        }
    }

    private func apply(_ event: ConnectionMachine.Event) {
        guard !isClosed else { return }
        depth += 1
        let actions = machine.event(event, now: loop.now)
        for action in actions { perform(action) }
        depth -= 1
        if depth == 0 && !isClosed {
            if outputHead < output.count && !blocked { flush() }
            if readable && machine.wantsInput { pump() }
        }
    }

    private func perform(_ action: ConnectionMachine.Action) {
        guard !isClosed else { return }
        switch action {
        case .dispatch(let dispatch):
            run(dispatch)
        case .sendContinue:
            output.append(.bytes(ResponseHeadEncoder.continueLine, offset: 0))
        case .send(let response, let record, let close):
            let head = loop.encoder.encode(response, close: close, keepAliveForHTTP10: record.http10 && !close)
            output.append(.bytes(head, offset: 0))
            switch response.payload {
            case .none: break
            case .bytes(let bytes): if !bytes.isEmpty { output.append(.bytes(bytes, offset: 0)) }
            case .file(let file, let offset, let length): if length > 0 { output.append(.file(file, offset: offset, remaining: length)) }
            case .stream(let start): startStream(start)
            }
            output.append(.completed(record, response.status, bytes: head.count + response.payloadLength))
        case .shutdownWrite:
            Socket.shutdownWrite(fd)
        case .close:
            close()
        }
    }

    /// Runs a route: inline handlers here, offloaded work on the pool with the answer posted back.
    private func run(_ dispatch: Dispatch) {
        let request = dispatch.request
        let sequence = dispatch.sequence
        let context = loop.context
        let reply: Reply
        do { reply = try dispatch.route.handler(request) } catch {
            apply(.responseReady(sequence: sequence, PreparedResponse(context.response(for: error, request: request), for: request)))
            return
        }
        switch reply {
        case .response(let response):
            apply(.responseReady(sequence: sequence, PreparedResponse(response, for: request)))
        case .offload(let work):
            let loop = self.loop
            context.pool.submit { [self] in
                let response: HTTPResponse
                do { response = try work() } catch { response = context.response(for: error, request: request) }
                let prepared = PreparedResponse(response, for: request)
                loop.execute { [self] in self.apply(.responseReady(sequence: sequence, prepared)) }
            }
        }
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
        for chunk in chunks where !chunk.isEmpty { output.append(.bytes(chunk, offset: 0)) }
        if !blocked { flush() }
        if closeRequested {
            // The application ended the stream: it is closed for it now, whatever the socket still does.
            stream.markClosed()
            apply(.streamEnded)
        }
    }

    /// Writes queued output until it is gone or the socket is full.
    private func flush() {
        var progressed = false
        while outputHead < output.count && !isClosed {
            switch output[outputHead] {
            case .completed(let record, let status, let bytes):
                outputHead += 1
                completed(record, status: status, bytes: bytes)
                continue
            case .file(let file, var offset, let remaining):
                let result: IOResult<Int>
                do { result = try Socket.sendfile(fd, file: file.fd, offset: &offset, count: remaining) } catch {
                    close()
                    return
                }
                guard case .done(let sent) = result, sent > 0 else {
                    if case .done = result { close(); return }  // the file shrank under us
                    return waitForSocket(progressed: progressed)
                }
                progressed = true
                if sent == remaining { outputHead += 1 } else { output[outputHead] = .file(file, offset: offset, remaining: remaining - sent) }
            case .bytes:
                let result = writeGathered()
                switch result {
                case .failed:
                    close()
                    return
                case .wouldBlock:
                    return waitForSocket(progressed: progressed)
                case .wrote:
                    progressed = true
                }
            }
        }
        if outputHead == output.count {
            output.removeAll(keepingCapacity: true)
            outputHead = 0
            blocked = false
            apply(.outputDrained)
        }
    }

    private enum GatherResult { case wrote, wouldBlock, failed }

    /// One writev of the consecutive byte segments at the front of the queue (head and body together).
    private func writeGathered() -> GatherResult {
        var vectors: [iovec] = []
        vectors.reserveCapacity(8)
        var end = outputHead
        while end < output.count && vectors.count < 64 {
            if case .bytes(let bytes, let offset) = output[end] {
                // The arrays stay alive and unmodified in `output` until the writev returns.
                bytes.withUnsafeBytes { raw in
                    vectors.append(iovec(iov_base: UnsafeMutableRawPointer(mutating: raw.baseAddress! + offset), iov_len: raw.count - offset))
                }
            } else if case .file = output[end] {
                break
            }
            end += 1
        }
        let result: IOResult<Int>
        do {
            result = try vectors.withUnsafeMutableBufferPointer { try Socket.writev(fd, $0.baseAddress!, count: $0.count) }
        } catch {
            return .failed
        }
        guard case .done(var written) = result else { return .wouldBlock }
        // Drop what was written; log markers fire as they are passed, so they stay in order.
        var index = outputHead
        while index < end {
            switch output[index] {
            case .bytes(let bytes, let offset):
                let left = bytes.count - offset
                guard written >= left else {
                    output[index] = .bytes(bytes, offset: offset + written)
                    outputHead = index
                    return .wrote
                }
                written -= left
            case .completed(let record, let status, let bytes):
                completed(record, status: status, bytes: bytes)
            case .file:
                break
            }
            index += 1
        }
        outputHead = end
        return .wrote
    }

    private func waitForSocket(progressed: Bool) {
        if !blocked {
            blocked = true
            apply(.outputBlocked)
        } else if progressed {
            apply(.outputProgressed)
        }
    }

    private func completed(_ record: RequestRecord, status: HTTPStatus, bytes: Int) {
        let context = loop.context
        let duration = loop.now - record.startedAt
        context.observer.requestCompleted(CompletedRequest(method: record.method, path: record.path, routePattern: record.routePattern,
                                                           status: status, bytesSent: bytes, durationSeconds: max(0, duration),
                                                           remoteAddress: record.remoteAddress))
        if context.logsRequests {
            context.logger.info("\(record.method) \(record.path) \(status.rawValue)", [
                ("method", record.method.rawValue), ("path", record.path), ("status", String(status.rawValue)),
                ("bytes", String(bytes)), ("ms", String(Int((max(0, duration) * 1000).rounded()))), ("remote", record.remoteAddress),
            ])
        }
    }

    /// Closes the socket at once and forgets the connection.
    func close() {
        guard !isClosed else { return }
        isClosed = true
        loop.epoll.remove(fd)
        Socket.close(fd)
        output.removeAll()
        stream?.markClosed()
        stream = nil
        loop.removed(self)
    }
}
