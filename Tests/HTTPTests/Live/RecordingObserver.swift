import Foundation
import Observability
@testable import HTTP

/// Remembers what the server reported, for assertions.
// @unchecked Sendable: its counts are guarded by `lock`.
final class RecordingObserver: HTTPServerObserver, @unchecked Sendable {
    private let lock = NSLock()
    private var _requests: [CompletedRequest] = []
    private var _opened = 0
    private var _closed = 0

    func connectionOpened() { lock.withLock { _opened += 1 } }
    func connectionClosed() { lock.withLock { _closed += 1 } }
    func requestCompleted(_ request: CompletedRequest) { lock.withLock { _requests.append(request) } }

    var requests: [CompletedRequest] { lock.withLock { _requests } }
    var opened: Int { lock.withLock { _opened } }
    var closed: Int { lock.withLock { _closed } }
}

/// Opens a connection from `source` (any 127.x.y.z address is this machine).
func connect(from source: String, to port: Int, timeoutSeconds: Double = 30) throws -> HTTPClientConnection? {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var local = sockaddr_in()
    local.sin_family = sa_family_t(AF_INET)
    inet_pton(AF_INET, source, &local.sin_addr)
    var remote = sockaddr_in()
    remote.sin_family = sa_family_t(AF_INET)
    remote.sin_port = in_port_t(UInt16(port).bigEndian)
    inet_pton(AF_INET, "127.0.0.1", &remote.sin_addr)
    let bound = withUnsafePointer(to: &local) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
    let connected = withUnsafePointer(to: &remote) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
    guard bound == 0, connected == 0 else { close(fd); return nil }
    return HTTPClientConnection(adopting: fd, timeoutSeconds: timeoutSeconds)
}
