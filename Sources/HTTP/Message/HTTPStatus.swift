/// A response status code with its standard reason phrase.
public struct HTTPStatus: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public init(_ code: Int) { self.rawValue = code }

    public static let `continue` = HTTPStatus(100)
    public static let ok = HTTPStatus(200)
    public static let created = HTTPStatus(201)
    public static let accepted = HTTPStatus(202)
    public static let noContent = HTTPStatus(204)
    public static let partialContent = HTTPStatus(206)
    public static let movedPermanently = HTTPStatus(301)
    public static let found = HTTPStatus(302)
    public static let seeOther = HTTPStatus(303)
    public static let notModified = HTTPStatus(304)
    public static let badRequest = HTTPStatus(400)
    public static let unauthorized = HTTPStatus(401)
    public static let forbidden = HTTPStatus(403)
    public static let notFound = HTTPStatus(404)
    public static let methodNotAllowed = HTTPStatus(405)
    public static let requestTimeout = HTTPStatus(408)
    public static let conflict = HTTPStatus(409)
    public static let gone = HTTPStatus(410)
    public static let lengthRequired = HTTPStatus(411)
    public static let preconditionFailed = HTTPStatus(412)
    public static let contentTooLarge = HTTPStatus(413)
    public static let uriTooLong = HTTPStatus(414)
    public static let unsupportedMediaType = HTTPStatus(415)
    public static let rangeNotSatisfiable = HTTPStatus(416)
    public static let expectationFailed = HTTPStatus(417)
    public static let misdirectedRequest = HTTPStatus(421)
    public static let unprocessableContent = HTTPStatus(422)
    public static let locked = HTTPStatus(423)
    public static let tooManyRequests = HTTPStatus(429)
    public static let requestHeaderFieldsTooLarge = HTTPStatus(431)
    public static let internalServerError = HTTPStatus(500)
    public static let notImplemented = HTTPStatus(501)
    public static let serviceUnavailable = HTTPStatus(503)
    public static let insufficientStorage = HTTPStatus(507)
    public static let httpVersionNotSupported = HTTPStatus(505)

    /// The standard reason phrase, e.g. "Not Found"; also the problem+json `title`.
    public var reasonPhrase: String {
        switch rawValue {
        case 100: "Continue"
        case 200: "OK"
        case 201: "Created"
        case 202: "Accepted"
        case 204: "No Content"
        case 206: "Partial Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 303: "See Other"
        case 304: "Not Modified"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 409: "Conflict"
        case 410: "Gone"
        case 411: "Length Required"
        case 412: "Precondition Failed"
        case 413: "Content Too Large"
        case 414: "URI Too Long"
        case 415: "Unsupported Media Type"
        case 416: "Range Not Satisfiable"
        case 417: "Expectation Failed"
        case 421: "Misdirected Request"
        case 422: "Unprocessable Content"
        case 423: "Locked"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 503: "Service Unavailable"
        case 507: "Insufficient Storage"
        case 505: "HTTP Version Not Supported"
        default: "Status \(rawValue)"
        }
    }

    public var description: String { "\(rawValue) \(reasonPhrase)" }
}
