/// Reading requests out of the inbound bytes and putting their answers in order.
extension ConnectionMachine {
    /// Parses and dispatches as many requests as the buffer and the pipeline limit allow.
    mutating func advance(now: Double, into actions: inout [Action]) {
        while true {
            switch phase {
            case .head(let startedAt):
                guard mayStartRequest else { return }
                if inboundStart == inbound.count {
                    if inputEnded { return endOfInput(into: &actions) }
                    phase = .head(startedAt: nil)
                    return
                }
                let start = inboundStart
                let result = inbound.withUnsafeBufferPointer { [validHost] in
                    RequestParser.parseHead(UnsafeBufferPointer(rebasing: $0[start...]), limits: limits, validHost: validHost)
                }
                switch consume result {
                case .needMore:
                    // Half a head will never be finished once the input has ended.
                    if inputEnded { return endOfInput(into: &actions) }
                    awaitingBytes = true
                    // The first head must be whole within the head timeout of the accept.
                    if startedAt == nil { phase = .head(startedAt: awaitingFirstRequest ? idleSince : now) }
                    return
                case .invalid(let error):
                    fail(error, record: nil, now: now, into: &actions)
                    return
                case .complete(let head, let consumed):
                    inboundStart += consumed
                    if let host = head.host { validHost = host }
                    begin(head, now: now, into: &actions)
                }
            case .body(var reader):
                if reader.stream != nil { return advanceStream(&reader, now: now, into: &actions) }
                let start = inboundStart
                var finished = false
                var failure: RequestError?
                if var decoder = reader.chunked {
                    let (consumed, outcome) = inbound.withUnsafeBufferPointer {
                        decoder.decode(UnsafeBufferPointer(rebasing: $0[start...]), into: &reader.body)
                    }
                    inboundStart += consumed
                    reader.chunked = decoder
                    switch outcome {
                    case .needMore: break
                    case .done: finished = true
                    case .invalid(let error): failure = error
                    }
                } else {
                    let take = min(reader.remaining, inbound.count - start)
                    if take > 0 {
                        reader.body.append(contentsOf: inbound[start..<(start + take)])
                        inboundStart += take
                        reader.remaining -= take
                    }
                    finished = reader.remaining == 0
                }
                if let failure {
                    fail(failure, record: reader.record, now: now, into: &actions)
                    return
                }
                if !finished {
                    phase = .body(reader)
                    return
                }
                reader.request.body = reader.body
                if inputEnded && inboundStart == inbound.count { reader.closeAfter = true }
                phase = reader.closeAfter ? .stopped : .head(startedAt: nil)
                dispatch(reader.request, route: reader.route, record: reader.record, closeAfter: reader.closeAfter, now: now, into: &actions)
            case .stopped, .streaming, .lingering, .closed:
                return
            }
        }
    }

    /// Routes a complete head: answers 404/405/413 at once, or reads the body, or dispatches.
    private mutating func begin(_ head: consuming RequestHead, now: Double, into actions: inout [Action]) {
        // The path first, the request only once its route is known: built whole in one place and
        // handed on, it is never copied on the way.
        let rawPath = head.requestTarget.path
        // The parser has looked for `%` already; most paths have none.
        let path = head.requestTarget.pathHasEscapes ? HTTPRequest.percentDecode(rawPath) ?? rawPath : rawPath
        let http10 = head.version.minor == 0
        // The last request before the client's end of input says so in its answer.
        let closeAfter = head.wantsClose
            || (inputEnded && !head.hasBody && inboundStart == inbound.count)
        // A name not served is refused before routing; a connection's requests nearly always
        // name the host its last admitted one named, and that one is not checked again.
        if let host = head.host, host != admittedHost {
            if let error = responder.router.allowedHosts.refusal(forHost: host) {
                let record = RequestRecord(method: head.method, path: path, routePattern: "", remoteAddress: remoteAddress, startedAt: now,
                                           http10: http10)
                refuse(error, head: head, record: record, closeAfter: closeAfter, now: now, into: &actions)
                return
            }
            admittedHost = host
        }
        switch responder.resolve(head.method, path: path) {
        case .refused(let error):
            let record = RequestRecord(method: head.method, path: path, routePattern: "", remoteAddress: remoteAddress, startedAt: now,
                                       http10: http10)
            refuse(error, head: head, record: record, closeAfter: closeAfter, now: now, into: &actions)
        case .route(let route, let parameters):
            let record = RequestRecord(method: head.method, target: head.requestTarget, path: path, queryString: head.requestTarget.query ?? "",
                                       version: head.version, headers: head.headers, noted: head.noted, body: [], remoteAddress: remoteAddress,
                                       routePattern: route.pattern, startedAt: now)
            let request = HTTPRequest(record: record, parameters: parameters)
            if let length = head.contentLength, length > route.maxBodyBytes {
                let error = HTTPError(.contentTooLarge, "The request body is larger than \(route.maxBodyBytes) bytes.")
                refuse(error, head: head, record: record, closeAfter: true, now: now, into: &actions)
                return
            }
            if route.bodyOpener != nil {
                return beginStream(head, request: request, route: route, record: record, closeAfter: closeAfter, now: now, into: &actions)
            }
            guard head.hasBody else {
                if closeAfter { phase = .stopped }
                dispatch(request, route: route, record: record, closeAfter: closeAfter, now: now, into: &actions)
                return
            }
            var reader = BodyReader(request: request, route: route, record: record, closeAfter: closeAfter,
                                    remaining: head.contentLength ?? 0,
                                    chunked: head.chunked ? ChunkedDecoder(maxBodyBytes: route.maxBodyBytes) : nil,
                                    startedAt: now, continueOwed: false)
            // 100 Continue only when the body has not started arriving anyway and the route accepts it.
            if head.expectsContinue && head.version.minor >= 1 && inboundStart == inbound.count {
                if slots.isEmpty && !outputPending { actions.append(.sendContinue) } else { reader.continueOwed = true }
            }
            phase = .body(reader)
        }
    }

    /// A request whose route streams its body: its slot is taken now and the sink opened on a
    /// worker; nothing of the body is read until the route has said where it goes.
    private mutating func beginStream(_ head: borrowing RequestHead, request: HTTPRequest, route: Route, record: RequestRecord, closeAfter: Bool,
                                      now: Double, into actions: inout [Action]) {
        let sequence = appendSlot(record: record, response: nil, closeAfter: closeAfter)
        inFlight += 1
        let stream = BodyStream(sequence: sequence, progressAt: now)
        let reader = BodyReader(request: request, route: route, record: record, closeAfter: closeAfter,
                                remaining: head.hasBody ? head.contentLength ?? 0 : 0,
                                chunked: head.hasBody && head.chunked ? ChunkedDecoder(maxBodyBytes: route.maxBodyBytes) : nil,
                                startedAt: now,
                                continueOwed: head.hasBody && head.expectsContinue && head.version.minor >= 1 && inboundStart == inbound.count,
                                stream: stream)
        phase = .body(reader)
        actions.append(.openBody(Dispatch(sequence: sequence, request: request, route: route)))
    }

    /// The route has opened the sink of a streamed body, or answered without it.
    mutating func bodyOpened(sequence: Int, refusal: PreparedResponse?, now: Double, into actions: inout [Action]) {
        guard case .body(var reader) = phase, var stream = reader.stream, stream.sequence == sequence, stream.state == .opening else { return }
        if let refusal {
            let announced = reader.remaining > 0 || reader.chunked != nil
            answerStreamEarly(sequence: sequence, refusal, mustClose: announced || reader.closeAfter, now: now, into: &actions)
            return
        }
        stream.state = .open
        stream.progressAt = now
        reader.stream = stream
        // 100 Continue only now that the route wants the body, and only when nothing is ahead of it.
        if reader.continueOwed && slots.count == 1 && slots[0].sequence == sequence {
            reader.continueOwed = false
            actions.append(.sendContinue)
        }
        phase = .body(reader)
        advance(now: now, into: &actions)
    }

    /// A streamed body's request answered before its body was read whole: refused at opening, or
    /// a piece the sink would not take. With body bytes possibly still coming, the connection
    /// stops reading and closes after the answer.
    mutating func answerStreamEarly(sequence: Int, _ response: PreparedResponse, mustClose: Bool, now: Double, into actions: inout [Action]) {
        if mustClose {
            phase = .stopped
            lingerOnClose = true
            inbound.removeAll(keepingCapacity: true)
            inboundStart = 0
        } else {
            phase = .head(startedAt: nil)
        }
        if let index = slots.firstIndex(where: { $0.sequence == sequence }) {
            if slots[index].response == nil { inFlight -= 1 }
            slots[index].response = response
            if mustClose { slots[index].closeAfter = true }
        }
        emitReady(now: now, into: &actions)
    }

    /// Moves a streamed body along: gathers received bytes into the next piece, hands a full
    /// piece to the sink when it has none, and asks for the answer once all is written.
    private mutating func advanceStream(_ reader: inout BodyReader, now: Double, into actions: inout [Action]) {
        guard var stream = reader.stream, stream.state == .open else {
            phase = .body(reader)
            return
        }
        let start = inboundStart
        let room = Self.streamPieceBytes - reader.body.count
        if !stream.received && room > 0 && start < inbound.count {
            var failure: RequestError?
            var consumed = 0
            if var decoder = reader.chunked {
                // Framing lines may take a little more than the room; the data never does much.
                let end = min(inbound.count, start + max(room, 8192))
                let (used, outcome) = inbound.withUnsafeBufferPointer {
                    decoder.decode(UnsafeBufferPointer(rebasing: $0[start..<end]), into: &reader.body)
                }
                consumed = used
                reader.chunked = decoder
                switch outcome {
                case .needMore: break
                case .done: stream.received = true
                case .invalid(let error): failure = error
                }
            } else {
                let take = min(reader.remaining, inbound.count - start, room)
                if take > 0 {
                    reader.body.append(contentsOf: inbound[start..<(start + take)])
                    reader.remaining -= take
                }
                consumed = take
            }
            inboundStart += consumed
            if consumed > 0 { stream.progressAt = now }
            if let failure {
                fail(failure, record: reader.record, now: now, into: &actions)
                return
            }
        }
        if reader.chunked == nil && reader.remaining == 0 { stream.received = true }
        if !stream.writing && !reader.body.isEmpty && (reader.body.count >= Self.streamPieceBytes || stream.received) {
            stream.writing = true
            let piece = reader.body
            reader.body = []
            reader.body.reserveCapacity(Self.streamPieceBytes)
            actions.append(.writeBody(sequence: stream.sequence, piece))
        }
        if stream.received && !stream.writing && reader.body.isEmpty {
            if inputEnded && inboundStart == inbound.count { reader.closeAfter = true }
            if reader.closeAfter, let index = slots.firstIndex(where: { $0.sequence == stream.sequence }) { slots[index].closeAfter = true }
            phase = reader.closeAfter ? .stopped : .head(startedAt: nil)
            actions.append(.finishBody(sequence: stream.sequence))
            return
        }
        reader.stream = stream
        phase = .body(reader)
    }

    /// The client's input has ended and holds no further complete request: the answers still
    /// owed go out, the last saying `Connection: close`, and then the connection closes.
    private mutating func endOfInput(into actions: inout [Action]) {
        phase = .stopped
        closeWhenDrained = true
        if !slots.isEmpty { slots[slots.count - 1].closeAfter = true }
        if slots.isEmpty && !outputPending { close(into: &actions) }
    }

    /// Answers a request whose route will not take it; when a body was announced, the connection
    /// closes after the answer rather than reading a body nobody wants.
    private mutating func refuse(_ error: HTTPResponseError, head: RequestHead, record: RequestRecord, closeAfter: Bool, now: Double,
                                 into actions: inout [Action]) {
        let mustClose = closeAfter || head.hasBody
        phase = mustClose ? .stopped : .head(startedAt: nil)
        if head.hasBody { lingerOnClose = true }
        appendSlot(record: record, response: .problem(error, method: head.method), closeAfter: mustClose)
        emitReady(now: now, into: &actions)
    }

    private mutating func dispatch(_ request: consuming HTTPRequest, route: Route, record: RequestRecord, closeAfter: Bool, now: Double,
                                   into actions: inout [Action]) {
        let sequence = appendSlot(record: record, response: nil, closeAfter: closeAfter)
        inFlight += 1
        actions.append(.dispatch(Dispatch(sequence: sequence, request: request, route: route)))
    }

    /// A request that cannot be read: answer it after the earlier ones, then close.
    mutating func fail(_ error: RequestError, record: RequestRecord?, now: Double, into actions: inout [Action]) {
        // A streamed body has its slot already: the error is its answer.
        if case .body(let reader) = phase, let stream = reader.stream {
            keepUnwrittenPiece()
            answerStreamEarly(sequence: stream.sequence, .problem(error), mustClose: true, now: now, into: &actions)
            return
        }
        let record = record ?? RequestRecord(method: HTTPMethod("-"), path: "-", routePattern: "", remoteAddress: remoteAddress,
                                             startedAt: now, http10: false)
        phase = .stopped
        lingerOnClose = true
        inbound.removeAll(keepingCapacity: true)
        inboundStart = 0
        appendSlot(record: record, response: .problem(error), closeAfter: true)
        emitReady(now: now, into: &actions)
    }

    @discardableResult
    private mutating func appendSlot(record: RequestRecord, response: PreparedResponse?, closeAfter: Bool) -> Int {
        let sequence = nextSequence
        nextSequence += 1
        slots.append(Slot(sequence: sequence, record: record, response: response, closeAfter: closeAfter))
        return sequence
    }

    /// Sends every answered slot at the front of the queue, in order.
    mutating func emitReady(now: Double, into actions: inout [Action]) {
        // The slot is moved out, not copied: a copy would retain every field of its response.
        while !slots.isEmpty, slots[0].response != nil {
            let first = slots.removeFirst()
            let response = first.response!
            let close = first.closeAfter || response.closeAfter
            if response.isStream && first.record.method != .HEAD {
                // A stream is delimited by the connection's end, so it is the connection's last response.
                actions.append(.send(response, first.record, close: true))
                phase = .streaming
                slots.removeAll()
                inFlight = 0
                inbound.removeAll(keepingCapacity: true)
                inboundStart = 0
                return
            }
            actions.append(.send(response, first.record, close: close))
            if close {
                phase = .stopped
                closeWhenDrained = true
                slots.removeAll()
                inFlight = 0
                return
            }
        }
        if slots.isEmpty, case .body(var reader) = phase, reader.continueOwed, reader.stream == nil {
            reader.continueOwed = false
            phase = .body(reader)
            actions.append(.sendContinue)
        }
    }
}
