import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A one-shot HTTP/1.1 GET over TCP with one deadline for everything: what a container health
/// check needs, in the binary itself, so the image carries no curl.
///
/// The socket calls stay in this file; failures become `HealthProbeError`s worded for the log of
/// a health check.
struct HealthProbe {
    /// Where to send the probe: `http://host:port/path`, path defaulting to `/healthz`.
    struct Target: Equatable, CustomStringConvertible {
        var host: String
        var port: Int
        var path: String

        var description: String {
            let shownHost = host.contains(":") ? "[\(host)]" : host
            return "http://\(shownHost):\(port)\(path)"
        }
    }

    /// The status line's code and the body as text.
    struct Answer: Equatable {
        var status: Int
        var reason: String
        var body: String
    }

    /// Most bytes of an answer read; a health answer is tiny.
    static let maxAnswerBytes = 64 * 1024

    /// `http://127.0.0.1:8080` → `127.0.0.1`, 8080, `/healthz`. A URL already ending in `/healthz` is kept.
    static func target(url: String) throws -> Target {
        guard url.lowercased().hasPrefix("http://") else {
            throw HealthProbeError("\(url) is not an http:// URL; health talks plain HTTP to the server's own port.")
        }
        let rest = url.dropFirst("http://".count)
        let authority = rest.prefix { $0 != "/" && $0 != "?" }
        var path = String(rest.dropFirst(authority.count))
        var host: Substring
        var portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw HealthProbeError("\(url) has an unclosed [ in its host.") }
            host = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if after.hasPrefix(":") { portText = after.dropFirst() } else if !after.isEmpty {
                throw HealthProbeError("\(url) has something after the ] of its host that is not a port.")
            }
        } else if let colon = authority.lastIndex(of: ":") {
            host = authority[..<colon]
            portText = authority[authority.index(after: colon)...]
        } else {
            host = authority
        }
        guard !host.isEmpty else { throw HealthProbeError("\(url) names no host.") }
        var port = 80
        if let portText {
            guard let p = Int(portText), (1...65535).contains(p) else {
                throw HealthProbeError("\(url) has no valid port (1–65535) after the colon.")
            }
            port = p
        }
        if path.hasSuffix("/") { path.removeLast() }
        if !path.hasSuffix("/healthz") { path += "/healthz" }
        return Target(host: String(host), port: port, path: path)
    }

    /// Connects, sends `GET path`, and reads the answer, all within `timeoutSeconds`.
    static func get(_ target: Target, timeoutSeconds: Double) throws -> Answer {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(max(0.001, timeoutSeconds) * 1e9)
        let fd = try connect(target, deadline: deadline, timeoutSeconds: timeoutSeconds)
        defer { close(fd) }
        let request = "GET \(target.path) HTTP/1.1\r\nHost: \(hostHeader(target))\r\nUser-Agent: photoscroll-health\r\n" +
            "Accept: application/json\r\nConnection: close\r\n\r\n"
        var bytes = Array(request.utf8)
        var sent = 0
        while sent < bytes.count {
            try wait(fd, for: Int16(POLLOUT), deadline: deadline, timeoutSeconds: timeoutSeconds, doing: "send the request to \(target)")
            let n = bytes.withUnsafeMutableBytes { Glibc.send(fd, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL)) }
            if n < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw HealthProbeError("could not send the request to \(target): \(String(cString: strerror(errno))).")
            }
            sent += n
        }
        bytes.removeAll()

        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while received.count < maxAnswerBytes {
            if let answer = parse(received, complete: false) { return answer }
            try wait(fd, for: Int16(POLLIN), deadline: deadline, timeoutSeconds: timeoutSeconds, doing: "get an answer from \(target)")
            let n = buffer.withUnsafeMutableBytes { Glibc.recv(fd, $0.baseAddress!, $0.count, 0) }
            if n < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw HealthProbeError("the connection to \(target) failed: \(String(cString: strerror(errno))).")
            }
            if n == 0 { break }
            received.append(contentsOf: buffer[0..<n])
        }
        if let answer = parse(received, complete: true) { return answer }
        throw HealthProbeError(received.isEmpty ? "\(target) closed the connection without answering."
                                                : "\(target) did not answer with HTTP.")
    }

    /// An answer once the head and the whole body (by Content-Length, or up to the close) are in.
    static func parse(_ bytes: [UInt8], complete: Bool) -> Answer? {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard let headEnd = bytes.indices.dropLast(3).first(where: { bytes[$0..<$0 + 4].elementsEqual(separator) }) else {
            return nil
        }
        let head = String(decoding: bytes[..<headEnd], as: UTF8.self).split(separator: "\r\n", omittingEmptySubsequences: false)
        let statusLine = head.first.map { $0.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false) } ?? []
        guard statusLine.count >= 2, statusLine[0].hasPrefix("HTTP/1."), let status = Int(statusLine[1]) else {
            return complete ? Answer(status: 0, reason: "", body: "") : nil
        }
        let reason = statusLine.count > 2 ? String(statusLine[2]) : ""
        var length: Int?
        for line in head.dropFirst() {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == "content-length" {
                length = Int(parts[1].trimmingCharacters(in: .whitespaces))
            }
        }
        let body = bytes[(headEnd + 4)...]
        if let length, body.count >= length {
            return Answer(status: status, reason: reason, body: String(decoding: body.prefix(length), as: UTF8.self))
        }
        return complete ? Answer(status: status, reason: reason, body: String(decoding: body, as: UTF8.self)) : nil
    }

    private static func hostHeader(_ target: Target) -> String {
        (target.host.contains(":") ? "[\(target.host)]" : target.host) + ":\(target.port)"
    }

    /// Tries every address the host resolves to, in order, until one accepts.
    private static func connect(_ target: Target, deadline: UInt64, timeoutSeconds: Double) throws -> Int32 {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(target.host, String(target.port), &hints, &list)
        guard status == 0, let first = list else {
            throw HealthProbeError("cannot resolve \(target.host): \(String(cString: gai_strerror(status))).")
        }
        defer { freeaddrinfo(first) }
        var lastError = HealthProbeError("cannot connect to \(target).")
        var current: UnsafeMutablePointer<addrinfo>? = first
        while let address = current {
            current = address.pointee.ai_next
            let fd = socket(address.pointee.ai_family, Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else { continue }
            if Glibc.connect(fd, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0 { return fd }
            guard errno == EINPROGRESS else {
                lastError = HealthProbeError("cannot connect to \(target): \(String(cString: strerror(errno))).")
                close(fd)
                continue
            }
            do {
                try wait(fd, for: Int16(POLLOUT), deadline: deadline, timeoutSeconds: timeoutSeconds, doing: "connect to \(target)")
                var error: Int32 = 0
                var length = socklen_t(MemoryLayout<Int32>.size)
                getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length)
                if error == 0 { return fd }
                lastError = HealthProbeError("cannot connect to \(target): \(String(cString: strerror(error))).")
                close(fd)
            } catch {
                close(fd)
                throw error
            }
        }
        throw lastError
    }

    /// Blocks until `fd` is ready for `events` or the deadline passes.
    private static func wait(_ fd: Int32, for events: Int16, deadline: UInt64, timeoutSeconds: Double, doing: String) throws {
        while true {
            let now = DispatchTime.now().uptimeNanoseconds
            guard now < deadline else {
                throw HealthProbeError("could not \(doing) within \(formatSeconds(timeoutSeconds)).")
            }
            var descriptor = pollfd(fd: fd, events: events, revents: 0)
            let milliseconds = Int32(min(UInt64(Int32.max), (deadline - now + 999_999) / 1_000_000))
            let n = poll(&descriptor, 1, milliseconds)
            if n > 0 { return }
            if n < 0 && errno != EINTR {
                throw HealthProbeError("could not \(doing): \(String(cString: strerror(errno))).")
            }
        }
    }

    static func formatSeconds(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? "\(Int(seconds)) s" : "\(seconds) s"
    }
}

/// Why a probe got no answer, in words for a health check's log.
struct HealthProbeError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
