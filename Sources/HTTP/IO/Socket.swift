#if canImport(Glibc)
import Glibc
#endif
import POSIX

/// Socket calls on raw descriptors; the one place the server touches the BSD socket API.
enum Socket {
    /// A non-blocking listening socket on `host:port`; `reusePort` lets every event loop bind its own.
    static func listen(host: String, port: Int, reusePort: Bool, backlog: Int32 = 1024) throws -> Int32 {
        let isIPv6 = host.contains(":")
        let fd = try requireSystemCall("socket") {
            socket(isIPv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        }
        do {
            try setOption(fd, SOL_SOCKET, SO_REUSEADDR, 1)
            if reusePort { try setOption(fd, SOL_SOCKET, SO_REUSEPORT, 1) }
            if isIPv6 {
                var address = sockaddr_in6()
                address.sin6_family = sa_family_t(AF_INET6)
                address.sin6_port = in_port_t(UInt16(port).bigEndian)
                guard inet_pton(AF_INET6, host, &address.sin6_addr) == 1 else {
                    throw SystemCallError(call: "inet_pton(\(host))", errno: EINVAL)
                }
                _ = try withUnsafePointer(to: &address) { pointer in
                    try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { sa in
                        try requireSystemCall("bind") { bind(fd, sa, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
                    }
                }
            } else {
                var address = sockaddr_in()
                address.sin_family = sa_family_t(AF_INET)
                address.sin_port = in_port_t(UInt16(port).bigEndian)
                let name = host == "localhost" ? "127.0.0.1" : host
                guard inet_pton(AF_INET, name, &address.sin_addr) == 1 else {
                    throw SystemCallError(call: "inet_pton(\(host))", errno: EINVAL)
                }
                _ = try withUnsafePointer(to: &address) { pointer in
                    try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { sa in
                        try requireSystemCall("bind") { bind(fd, sa, socklen_t(MemoryLayout<sockaddr_in>.size)) }
                    }
                }
            }
            try requireSystemCall("listen") { Glibc.listen(fd, backlog) }
            return fd
        } catch {
            close(fd)
            throw error
        }
    }

    /// The port a bound socket got (the answer to binding port 0).
    static func localPort(_ fd: Int32) throws -> Int {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = try withUnsafeMutablePointer(to: &storage) { pointer in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { sa in
                try requireSystemCall("getsockname") { getsockname(fd, sa, &length) }
            }
        }
        let family = storage.ss_family
        return withUnsafePointer(to: &storage) { pointer in
            if family == sa_family_t(AF_INET6) {
                return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin6_port)) }
            }
            return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin_port)) }
        }
    }

    /// Accepts one connection as a non-blocking descriptor with its peer's address; nil when none is waiting.
    static func accept(_ listener: Int32) throws -> (fd: Int32, remote: String)? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = try withUnsafeMutablePointer(to: &storage) { pointer in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { sa in
                try systemCall("accept4") { acceptNonblocking(listener, sa, &length) }
            }
        }
        guard case .done(let fd) = result else { return nil }
        return (fd, describe(&storage))
    }

    /// A blocking client connection to `host:port`, with send and receive timeouts.
    static func connect(host: String, port: Int, timeoutSeconds: Double) throws -> Int32 {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw SystemCallError(call: "getaddrinfo(\(host))", errno: EHOSTUNREACH)
        }
        defer { freeaddrinfo(list) }
        var lastError = SystemCallError(call: "connect", errno: ECONNREFUSED)
        var candidate: UnsafeMutablePointer<addrinfo>? = first
        while let info = candidate {
            candidate = info.pointee.ai_next
            let fd = socket(info.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else { continue }
            setTimeout(fd, seconds: timeoutSeconds)
            do {
                try requireSystemCall("connect") { Glibc.connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) }
                setNoDelay(fd)
                return fd
            } catch {
                lastError = error
                close(fd)
            }
        }
        throw lastError
    }

    /// Sets SO_RCVTIMEO and SO_SNDTIMEO on a blocking socket.
    static func setTimeout(_ fd: Int32, seconds: Double) {
        var tv = timeval(tv_sec: Int(seconds), tv_usec: Int((seconds - Double(Int(seconds))) * 1_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Sends small writes at once instead of waiting to coalesce them (Nagle), which would delay every response.
    static func setNoDelay(_ fd: Int32) { try? setOption(fd, Int32(IPPROTO_TCP), Int32(TCP_NODELAY), 1) }

    static func setOption(_ fd: Int32, _ level: Int32, _ name: Int32, _ value: Int32) throws {
        var value = value
        try requireSystemCall("setsockopt") { setsockopt(fd, level, name, &value, socklen_t(MemoryLayout<Int32>.size)) }
    }

    /// Reads into `buffer`; 0 means the peer closed its side. `recv` rather than `read`: it goes
    /// straight to the socket, without the file layer's position and access-notification steps.
    static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws -> IOResult<Int> {
        try systemCall("recv") { recv(fd, buffer.baseAddress, buffer.count, 0) }
    }

    /// Gathers up to IOV_MAX buffers into one send; never raises SIGPIPE.
    static func writev(_ fd: Int32, _ vectors: UnsafeMutablePointer<iovec>, count: Int) throws -> IOResult<Int> {
        var message = msghdr()
        message.msg_iov = vectors
        message.msg_iovlen = count
        return try systemCall("sendmsg") { sendmsg(fd, &message, Int32(MSG_NOSIGNAL)) }
    }

    /// Sends bytes; never raises SIGPIPE.
    static func send(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws -> IOResult<Int> {
        try systemCall("send") { Glibc.send(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Copies up to `count` bytes of file `file` from `offset` to the socket inside the kernel.
    static func sendfile(_ fd: Int32, file: Int32, offset: inout Int, count: Int) throws -> IOResult<Int> {
        try systemCall("sendfile") { Glibc.sendfile(fd, file, &offset, count) }
    }

    /// Shuts the write side so the peer reads end-of-stream before the descriptor closes.
    static func shutdownWrite(_ fd: Int32) { _ = Glibc.shutdown(fd, Int32(SHUT_WR)) }

    /// Makes the next `close` reset the connection: what the kernel still holds for the peer is
    /// dropped at once instead of trickling out after the close.
    static func setResetOnClose(_ fd: Int32) {
        var option = linger(l_onoff: 1, l_linger: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
    }

    static func close(_ fd: Int32) { _ = Glibc.close(fd) }

    private static func describe(_ storage: inout sockaddr_storage) -> String {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        let family = storage.ss_family
        return withUnsafePointer(to: &storage) { pointer -> String in
            if family == sa_family_t(AF_INET6) {
                return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { sin6 in
                    var address = sin6.pointee.sin6_addr
                    inet_ntop(AF_INET6, &address, &text, socklen_t(text.count))
                    return text.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
                }
            }
            return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { sin in
                var address = sin.pointee.sin_addr
                inet_ntop(AF_INET, &address, &text, socklen_t(text.count))
                return text.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            }
        }
    }
}
