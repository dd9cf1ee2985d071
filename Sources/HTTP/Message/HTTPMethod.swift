/// A request method token, compared case-sensitively as RFC 9110 says.
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    @inlinable public init(rawValue: String) { self.rawValue = rawValue }
    @inlinable public init(_ rawValue: String) { self.rawValue = rawValue }

    // Spelled out at each use rather than kept as globals: a name this short lives inside the
    // string itself, so making one costs nothing, where a global is a guarded load and a
    // retain at every comparison.
    @inlinable public static var GET: HTTPMethod { HTTPMethod("GET") }
    @inlinable public static var HEAD: HTTPMethod { HTTPMethod("HEAD") }
    @inlinable public static var POST: HTTPMethod { HTTPMethod("POST") }
    @inlinable public static var PUT: HTTPMethod { HTTPMethod("PUT") }
    @inlinable public static var DELETE: HTTPMethod { HTTPMethod("DELETE") }
    @inlinable public static var PATCH: HTTPMethod { HTTPMethod("PATCH") }
    @inlinable public static var OPTIONS: HTTPMethod { HTTPMethod("OPTIONS") }
    @inlinable public static var TRACE: HTTPMethod { HTTPMethod("TRACE") }
    @inlinable public static var CONNECT: HTTPMethod { HTTPMethod("CONNECT") }

    /// Methods this server knows; any other token is answered 501.
    public static let known: Set<HTTPMethod> = [.GET, .HEAD, .POST, .PUT, .DELETE, .PATCH, .OPTIONS, .TRACE, .CONNECT]

    public var description: String { rawValue }
}
