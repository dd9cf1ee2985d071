import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A loopback listener that answers each connection with fixed bytes (or never), so the health
/// command can be tested against answers a real server would rarely give.
// @unchecked Sendable: `thread` (a Foundation Thread, not Sendable here) is set in `init` and only started.
final class CannedHTTPServer: @unchecked Sendable {
    let port: Int
    private let listener: Int32
    /// Connections accepted so far; nil once stopped.
    private final class Accepted: Sendable {
        let fds = Mutex<[Int32]?>([])
    }
    private let accepted = Accepted()
    private let thread: Thread
    /// Signalled as the thread ends: the listener's descriptor is closed only after, so that the
    /// thread never accepts on a number the next server's listener has been given.
    private let finished = DispatchSemaphore(value: 0)

    /// `answer` nil: accept and then say nothing, to exercise the timeout.
    init(answer: String?) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Bool in
                bind(fd, pointer, length) == 0 && listen(fd, 8) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else { close(fd); throw POSIXError(.EADDRINUSE) }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        let accepted = self.accepted, finished = self.finished
        thread = Thread {
            defer { finished.signal() }
            while true {
                let client = accept(fd, nil, nil)
                if client < 0 { return }
                let kept = accepted.fds.withLock { fds -> Bool in
                    fds?.append(client)
                    return fds != nil
                }
                if !kept { close(client); return }
                guard let answer else { continue }
                var request: [UInt8] = []
                var buffer = [UInt8](repeating: 0, count: 1024)
                while !request.suffix(4).elementsEqual([13, 10, 13, 10]) {
                    let n = recv(client, &buffer, buffer.count, 0)
                    if n <= 0 { break }
                    request += buffer[0..<n]
                }
                let bytes = Array(answer.utf8)
                _ = bytes.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                shutdown(client, Int32(SHUT_RDWR))
            }
        }
        thread.start()
    }

    deinit { stop() }

    /// Stops accepting and closes every connection.
    func stop() {
        guard let fds = accepted.fds.withLock({ fds -> [Int32]? in
            defer { fds = nil }
            return fds
        }) else { return }
        // Wakes the thread wherever it waits (accept, or a client's recv), and waits for it to end
        // before any descriptor is closed: a number closed while the thread could still use it may
        // be the next server's, whose connection it would then take and close (a reset).
        shutdown(listener, Int32(SHUT_RDWR))
        fds.forEach { shutdown($0, Int32(SHUT_RDWR)) }
        finished.wait()
        close(listener)
        fds.forEach { close($0) }
    }
}
