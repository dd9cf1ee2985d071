import POSIX

/// A blocking client connection that sends raw bytes and reads responses one by one: for tools,
/// health checks and live tests that need to control exactly what goes on the wire.
public final class HTTPClientConnection {
    /// The socket, for callers that set its options (a small receive buffer, say).
    public let fd: Int32
    private var buffer: [UInt8] = []
    private var closedByPeer = false
    private var isClosed = false

    /// Connects to `host:port`; reads and writes give up after `timeoutSeconds`.
    public init(host: String = "127.0.0.1", port: Int, timeoutSeconds: Double = 5) throws {
        fd = try Socket.connect(host: host, port: port, timeoutSeconds: timeoutSeconds)
    }

    /// Takes over a socket connected by the caller (from a chosen source address, say).
    public init(adopting fd: Int32, timeoutSeconds: Double = 5) {
        self.fd = fd
        Socket.setTimeout(fd, seconds: timeoutSeconds)
    }

    deinit { close() }

    /// Sends every byte.
    public func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let result = try bytes.withUnsafeBytes { raw in
                try Socket.send(fd, UnsafeRawBufferPointer(rebasing: raw[offset...]))
            }
            guard case .done(let n) = result else { throw HTTPClientError("send timed out") }
            offset += n
        }
    }

    /// Sends text as UTF-8.
    public func send(_ text: String) throws { try send(Array(text.utf8)) }

    /// Closes the sending side, so the server reads end-of-input.
    public func shutdownWrite() { Socket.shutdownWrite(fd) }

    /// Reads one whole response. `head: true` for an answer to HEAD (no body whatever the headers say).
    public func readResponse(head: Bool = false) throws -> HTTPClientResponse {
        var response = try readResponseHead()
        let status = response.status
        if head || status < 200 || status == 204 || status == 304 { return response }
        if let encoding = response.headers["Transfer-Encoding"], encoding.lowercased().contains("chunked") {
            response.body = try readChunkedBody()
        } else if let lengthText = response.headers["Content-Length"] {
            guard let length = Int(lengthText) else { throw HTTPClientError("bad Content-Length \(lengthText)") }
            try fill(length)
            response.body = Array(buffer[0..<length])
            buffer.removeFirst(length)
        } else {
            while try readMore() {}
            response.body = buffer
            buffer.removeAll()
        }
        return response
    }

    /// Reads a status line and headers, leaving any body bytes buffered for `readAvailable`.
    public func readResponseHead() throws -> HTTPClientResponse {
        var end: Int?
        while end == nil {
            end = Self.find([13, 10, 13, 10], in: buffer)
            if end == nil, !(try readMore()) { throw HTTPClientError("connection closed before a response head") }
        }
        let headText = String(decoding: buffer[0..<end!], as: UTF8.self)
        buffer.removeFirst(end! + 4)
        var lines = headText.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst()
        let parts = statusLine.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]) else {
            throw HTTPClientError("bad status line \(statusLine)")
        }
        var headers = HTTPHeaders()
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.add(String(line[..<colon]), line[line.index(after: colon)...].trimmingWhitespace())
        }
        return HTTPClientResponse(status: status, reason: parts.count > 2 ? String(parts[2]) : "", headers: headers, body: [])
    }

    /// Whatever has arrived (waiting up to the timeout for at least one byte); empty once the peer closed.
    public func readAvailable() throws -> [UInt8] {
        if buffer.isEmpty { _ = try readMore() }
        defer { buffer.removeAll() }
        return buffer
    }

    /// Whether the server closes the connection within the timeout (buffered bytes are discarded).
    public func waitForClose() -> Bool {
        while true {
            buffer.removeAll()
            do {
                if !(try readMore()) { return true }
            } catch let error as SystemCallError {
                return error.errno == Errno.connectionReset || error.errno == Errno.brokenPipe
            } catch {
                return false
            }
        }
    }

    /// Closes the socket; safe to call more than once.
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        Socket.close(fd)
    }

    /// Reads once; false at end of stream. Throws on timeout.
    private func readMore() throws -> Bool {
        if closedByPeer { return false }
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        let result = try chunk.withUnsafeMutableBytes { try Socket.read(fd, into: $0) }
        switch result {
        case .wouldBlock: throw HTTPClientError("timed out waiting for the server")
        case .done(0):
            closedByPeer = true
            return false
        case .done(let n):
            buffer.append(contentsOf: chunk[0..<n])
            return true
        }
    }

    private func fill(_ count: Int) throws {
        while buffer.count < count {
            guard try readMore() else { throw HTTPClientError("connection closed inside a body") }
        }
    }

    private func readLine() throws -> String {
        while true {
            if let end = Self.find([13, 10], in: buffer) {
                let line = String(decoding: buffer[0..<end], as: UTF8.self)
                buffer.removeFirst(end + 2)
                return line
            }
            guard try readMore() else { throw HTTPClientError("connection closed inside a chunked body") }
        }
    }

    private func readChunkedBody() throws -> [UInt8] {
        var body: [UInt8] = []
        while true {
            let sizeLine = try readLine()
            let hex = sizeLine.split(separator: ";").first.map { $0.trimmingWhitespace() } ?? ""
            guard let size = Int(hex, radix: 16) else { throw HTTPClientError("bad chunk size \(sizeLine)") }
            if size == 0 {
                while try !readLine().isEmpty {}
                return body
            }
            try fill(size + 2)
            body.append(contentsOf: buffer[0..<size])
            buffer.removeFirst(size + 2)
        }
    }

    static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        outer: for start in 0...(haystack.count - needle.count) {
            for (offset, byte) in needle.enumerated() where haystack[start + offset] != byte { continue outer }
            return start
        }
        return nil
    }
}
