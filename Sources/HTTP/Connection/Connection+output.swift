import POSIX

/// Sending: gathered writes of heads and bodies, sendfile for files, and the access log line
/// once a response has been handed to the kernel.
extension Connection {
    /// Writes queued output until it is gone or the socket is full.
    func flush() {
        var progressed = false
        defer { if progressed { notifyStreamIfDrained() } }
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
                machine.unsentBytes -= sent
                machine.sentBytes += sent
                if sent == remaining { outputHead += 1 } else { output[outputHead] = .file(file, offset: offset, remaining: remaining - sent) }
            case .bytes, .encoded:
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

    enum GatherResult { case wrote, wouldBlock, failed }

    /// One writev of the consecutive byte segments at the front of the queue (head and body together).
    func writeGathered() -> GatherResult {
        // The vectors live on the stack: an array here was one allocation per response.
        let gathered: (result: IOResult<Int>, end: Int)? = withUnsafeTemporaryAllocation(of: IOVector.self, capacity: 64) { vectors in
            var count = 0
            var end = outputHead
            gather: while end < output.count {
                // The arrays stay alive and unmodified in `output` until the writev returns.
                switch output[end] {
                case .bytes(let bytes, let offset):
                    guard count < 64 else { break gather }
                    bytes.withUnsafeBytes { raw in
                        vectors[count] = IOVector(start: raw.baseAddress! + offset, count: raw.count - offset)
                    }
                    count += 1
                case .encoded(let answer, let withBody, let offset):
                    guard count + 2 <= 64 else { break gather }
                    let fields = answer.fieldLines.count
                    if offset < fields {
                        answer.fieldLines.withUnsafeBytes { raw in
                            vectors[count] = IOVector(start: raw.baseAddress! + offset, count: fields - offset)
                        }
                        count += 1
                    }
                    if withBody && answer.body.count > max(0, offset - fields) {
                        let skip = max(0, offset - fields)
                        answer.body.withUnsafeBytes { raw in
                            vectors[count] = IOVector(start: raw.baseAddress! + skip, count: raw.count - skip)
                        }
                        count += 1
                    }
                case .file:
                    break gather
                case .completed:
                    break
                }
                end += 1
            }
            do { return (try Socket.writev(fd, vectors.baseAddress!, count: count), end) } catch { return nil }
        }
        guard let (result, end) = gathered else { return .failed }
        guard case .done(var written) = result else { return .wouldBlock }
        machine.unsentBytes -= written
        machine.sentBytes += written
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
            case .encoded(let answer, let withBody, let offset):
                let left = answer.wireCount(withBody: withBody) - offset
                guard written >= left else {
                    output[index] = .encoded(answer, withBody: withBody, offset: offset + written)
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

    func waitForSocket(progressed: Bool) {
        if !blocked {
            blocked = true
            apply(.outputBlocked)
        } else if progressed {
            apply(.outputProgressed)
        }
    }

    func completed(_ record: RequestRecord, status: HTTPStatus, bytes: Int) {
        let context = loop.context
        let duration = loop.now - record.startedAt
        context.observer.requestCompleted(CompletedRequest(record: record, status: status, bytesSent: bytes, durationSeconds: max(0, duration)))
        if context.logsRequests {
            loop.accessLog.log(record, status: status, bytes: bytes, milliseconds: Int((max(0, duration) * 1000).rounded()), now: loop.now)
        }
    }
}
