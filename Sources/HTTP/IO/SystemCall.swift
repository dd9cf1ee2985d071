#if canImport(Glibc)
import Glibc
#endif

/// A system call that failed: which call, and the errno it left.
public struct SystemCallError: Error, CustomStringConvertible, Sendable {
    /// The call's name, e.g. `bind`.
    public let call: String
    /// The errno value after the call.
    public let errno: Int32

    public init(call: String, errno: Int32) {
        self.call = call
        self.errno = errno
    }

    public var description: String { "\(call): \(String(cString: strerror(errno))) (errno \(errno))" }
}

/// The outcome of a call on a non-blocking descriptor.
enum IOResult<Value> {
    case done(Value)
    /// EAGAIN / EWOULDBLOCK: try again when epoll says the descriptor is ready.
    case wouldBlock
}

/// Runs a system call, retrying EINTR, reporting EAGAIN as would-block and throwing anything else.
@inline(__always)
func systemCall<Value: FixedWidthInteger>(_ name: StaticString, _ body: () -> Value) throws -> IOResult<Value> {
    while true {
        let result = body()
        if result >= 0 { return .done(result) }
        let code = errno
        if code == EINTR { continue }
        if code == EAGAIN || code == EWOULDBLOCK { return .wouldBlock }
        throw SystemCallError(call: "\(name)", errno: code)
    }
}

/// Runs a system call that must not block, retrying EINTR and throwing on failure.
@inline(__always)
@discardableResult
func requireSystemCall<Value: FixedWidthInteger>(_ name: StaticString, _ body: () -> Value) throws -> Value {
    switch try systemCall(name, body) {
    case .done(let value): return value
    case .wouldBlock: throw SystemCallError(call: "\(name)", errno: EAGAIN)
    }
}
