#if canImport(Glibc)
import Glibc
#endif
// The socket calls come from our C shims' headers as well as Glibc's; imported publicly so that
// the calls a request makes can be inlined.
public import CShims

/// Socket calls on raw descriptors: the one place the program touches the BSD socket API. The
/// calls a request makes (read, gathered write, send, sendfile, close) are inlined into the
/// caller, so they cost what the call written in place would.
public enum Socket {
    /// A non-blocking listening socket on `host:port`; `reusePort` lets every event loop bind its own.
    public static func listen(host: String, port: Int, reusePort: Bool, backlog: Int32 = 1024) throws(SystemCallError) -> Int32 {
        let isIPv6 = host.contains(":")
        let fd = try requireSystemCall("socket") {
            socket(isIPv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        }
        do throws(SystemCallError) {
            try setOption(fd, SOL_SOCKET, SO_REUSEADDR, 1)
            if reusePort { try setOption(fd, SOL_SOCKET, SO_REUSEPORT, 1) }
            if isIPv6 {
                var address = sockaddr_in6()
                address.sin6_family = sa_family_t(AF_INET6)
                address.sin6_port = in_port_t(UInt16(port).bigEndian)
                guard inet_pton(AF_INET6, host, &address.sin6_addr) == 1 else {
                    throw SystemCallError(call: "inet_pton(\(host))", errno: EINVAL)
                }
                try bind(fd, &address)
            } else {
                var address = sockaddr_in()
                address.sin_family = sa_family_t(AF_INET)
                address.sin_port = in_port_t(UInt16(port).bigEndian)
                let name = host == "localhost" ? "127.0.0.1" : host
                guard inet_pton(AF_INET, name, &address.sin_addr) == 1 else {
                    throw SystemCallError(call: "inet_pton(\(host))", errno: EINVAL)
                }
                try bind(fd, &address)
            }
            try requireSystemCall("listen") { Glibc.listen(fd, backlog) }
            return fd
        } catch {
            close(fd)
            throw error
        }
    }

    /// bind(2) of `fd` to the address in `address` (a `sockaddr_in` or `sockaddr_in6`).
    private static func bind<Address>(_ fd: Int32, _ address: inout Address) throws(SystemCallError) {
        let length = socklen_t(MemoryLayout<Address>.size)
        let result = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { sa in Glibc.bind(fd, sa, length) }
        }
        if result != 0 { throw SystemCallError(call: "bind", errno: errno) }
    }

    /// The port a bound socket got (the answer to binding port 0).
    public static func localPort(_ fd: Int32) throws(SystemCallError) -> Int {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { sa in getsockname(fd, sa, &length) }
        }
        if result != 0 { throw SystemCallError(call: "getsockname", errno: errno) }
        let family = storage.ss_family
        return withUnsafePointer(to: &storage) { pointer in
            if family == sa_family_t(AF_INET6) {
                return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin6_port)) }
            }
            return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin_port)) }
        }
    }

    /// Accepts one connection as a non-blocking, close-on-exec descriptor (accept4) with its
    /// peer's address; nil when none is waiting.
    public static func accept(_ listener: Int32) throws(SystemCallError) -> (fd: Int32, remote: String)? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = try withUnsafeMutablePointer(to: &storage) { pointer throws(SystemCallError) in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { sa throws(SystemCallError) in
                try systemCall("accept4") { cshims_accept_nonblocking(listener, sa, &length) }
            }
        }
        guard case .done(let fd) = result else { return nil }
        return (fd, describe(&storage))
    }

    /// A blocking client connection to `host:port`, with send and receive timeouts.
    public static func connect(host: String, port: Int, timeoutSeconds: Double) throws(SystemCallError) -> Int32 {
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
            do throws(SystemCallError) {
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
    public static func setTimeout(_ fd: Int32, seconds: Double) {
        var tv = timeval(tv_sec: Int(seconds), tv_usec: Int((seconds - Double(Int(seconds))) * 1_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Sends small writes at once instead of waiting to coalesce them (Nagle), which would delay every response.
    public static func setNoDelay(_ fd: Int32) { try? setOption(fd, Int32(IPPROTO_TCP), Int32(TCP_NODELAY), 1) }

    private static func setOption(_ fd: Int32, _ level: Int32, _ name: Int32, _ value: Int32) throws(SystemCallError) {
        var value = value
        try requireSystemCall("setsockopt") { setsockopt(fd, level, name, &value, socklen_t(MemoryLayout<Int32>.size)) }
    }

    /// Reads into `buffer`; 0 means the peer closed its side. `recv` rather than `read`: it goes
    /// straight to the socket, without the file layer's position and access-notification steps.
    @inlinable
    public static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(SystemCallError) -> IOResult<Int> {
        try systemCall("recv") { recv(fd, buffer.baseAddress, buffer.count, 0) }
    }

    /// Gathers up to IOV_MAX buffers into one send; never raises SIGPIPE.
    @inlinable
    public static func writev(_ fd: Int32, _ vectors: UnsafeMutablePointer<IOVector>, count: Int) throws(SystemCallError) -> IOResult<Int> {
        var message = msghdr()
        message.msg_iov = vectors
        message.msg_iovlen = count
        return try systemCall("sendmsg") { sendmsg(fd, &message, Int32(MSG_NOSIGNAL)) }
    }

    /// Sends bytes; never raises SIGPIPE.
    @inlinable
    public static func send(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(SystemCallError) -> IOResult<Int> {
        try systemCall("send") { Glibc.send(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Copies up to `count` bytes of file `file` from `offset` to the socket inside the kernel.
    @inlinable
    public static func sendfile(_ fd: Int32, file: Int32, offset: inout Int, count: Int) throws(SystemCallError) -> IOResult<Int> {
        try systemCall("sendfile") { Glibc.sendfile(fd, file, &offset, count) }
    }

    /// Shuts the write side so the peer reads end-of-stream before the descriptor closes.
    @inlinable
    public static func shutdownWrite(_ fd: Int32) { _ = Glibc.shutdown(fd, Int32(SHUT_WR)) }

    /// Makes the next `close` reset the connection: what the kernel still holds for the peer is
    /// dropped at once instead of trickling out after the close.
    public static func setResetOnClose(_ fd: Int32) {
        var option = linger(l_onoff: 1, l_linger: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
    }

    @inlinable
    public static func close(_ fd: Int32) { _ = Glibc.close(fd) }

    /// The 16 bytes of an IPv6 address in text (`2001:db8::1`, `::ffff:192.0.2.1`), or nil when
    /// `text` is not one.
    public static func ipv6Bytes(_ text: String) -> [UInt8]? {
        var bytes = in6_addr()
        let parsed = text.withCString { inet_pton(AF_INET6, $0, &bytes) }
        guard parsed == 1 else { return nil }
        return withUnsafeBytes(of: &bytes) { Array($0) }
    }

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
