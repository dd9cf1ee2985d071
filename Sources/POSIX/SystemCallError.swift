#if canImport(Glibc)
import Glibc
#endif

/// A system call that failed: which call, and the errno it left. The one error every module's
/// system calls throw; callers that speak to users turn `reason` into their own words.
public struct SystemCallError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The call's name, e.g. `bind` or `open(/photos/a.jpg)`.
    public let call: String
    /// The errno value after the call.
    public let errno: Int32

    public init(call: String, errno: Int32) {
        self.call = call
        self.errno = errno
    }

    /// What the C library says errno means, e.g. "No such file or directory".
    public var reason: String { String(cString: strerror(errno)) }

    public var description: String { "\(call): \(reason) (errno \(errno))" }

    /// Built out of line, so that the inlined call sites carry only the test and the branch.
    @usableFromInline @inline(never)
    static func failed(_ name: StaticString, errno: Int32) -> SystemCallError {
        SystemCallError(call: "\(name)", errno: errno)
    }
}
