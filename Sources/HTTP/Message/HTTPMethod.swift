/// A request method token, compared case-sensitively as RFC 9110 says.
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }

    public static let GET = HTTPMethod("GET")
    public static let HEAD = HTTPMethod("HEAD")
    public static let POST = HTTPMethod("POST")
    public static let PUT = HTTPMethod("PUT")
    public static let DELETE = HTTPMethod("DELETE")
    public static let PATCH = HTTPMethod("PATCH")
    public static let OPTIONS = HTTPMethod("OPTIONS")
    public static let TRACE = HTTPMethod("TRACE")
    public static let CONNECT = HTTPMethod("CONNECT")

    /// Methods this server knows; any other token is answered 501.
    public static let known: Set<HTTPMethod> = [.GET, .HEAD, .POST, .PUT, .DELETE, .PATCH, .OPTIONS, .TRACE, .CONNECT]

    public var description: String { rawValue }
}
