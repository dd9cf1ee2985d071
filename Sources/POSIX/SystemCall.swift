#if canImport(Glibc)
import Glibc
#endif

/// Runs a system call, retrying EINTR, reporting EAGAIN as would-block and throwing anything else.
/// Inlined into every caller: on the request path it costs what the hand-written check would.
@inlinable @inline(__always)
public func systemCall<Value: FixedWidthInteger>(_ name: StaticString, _ body: () -> Value) throws(SystemCallError) -> IOResult<Value> {
    while true {
        let result = body()
        if result >= 0 { return .done(result) }
        let code = errno
        if code == EINTR { continue }
        if code == EAGAIN || code == EWOULDBLOCK { return .wouldBlock }
        throw .failed(name, errno: code)
    }
}

/// Runs a system call that must not block (or may block, on a blocking descriptor), retrying
/// EINTR and throwing on any failure, EAGAIN included.
@inlinable @inline(__always)
@discardableResult
public func requireSystemCall<Value: FixedWidthInteger>(_ name: StaticString, _ body: () -> Value) throws(SystemCallError) -> Value {
    switch try systemCall(name, body) {
    case .done(let value): return value
    case .wouldBlock: throw .failed(name, errno: EAGAIN)
    }
}
