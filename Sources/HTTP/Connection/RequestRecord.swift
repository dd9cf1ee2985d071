/// One request as the server holds it: what the route reads (through `HTTPRequest`, whose
/// storage this is) and what the access log and the observer learn when it is answered.
///
/// A class: the record travels from the parser through the request's slot and the send
/// action to the output queue, and passing one reference costs a single retain where a
/// struct of its strings cost one each at every step. Being the request's storage too, it
/// costs a request one allocation instead of two.
///
/// Changed only through `HTTPRequest`'s setters, after `isKnownUniquelyReferenced`: once the
/// server holds the record in a slot, a handler's change copies it, so the record stays as
/// the request arrived.
// @unchecked Sendable: copy-on-write storage: changed only while uniquely referenced (see above).
final class RequestRecord: @unchecked Sendable {
    var method: HTTPMethod
    var target: RequestTarget
    var path: String
    var queryString: String
    var version: HTTPVersion
    var headers: HTTPHeaders
    /// Which of the fields that shape an answer `headers` holds; noted again when they change.
    var noted: NotedFields
    var body: [UInt8]
    var remoteAddress: String
    /// The route pattern that matched, "" for none.
    let routePattern: String
    /// Monotonic seconds when the head was complete.
    let startedAt: Double

    /// Whether the request came as HTTP/1.0.
    var http10: Bool { version.minor == 0 }

    init(method: HTTPMethod, target: RequestTarget, path: String, queryString: String, version: HTTPVersion, headers: HTTPHeaders,
         noted: NotedFields, body: [UInt8], remoteAddress: String, routePattern: String = "", startedAt: Double = 0) {
        self.method = method
        self.target = target
        self.path = path
        self.queryString = queryString
        self.version = version
        self.headers = headers
        self.noted = noted
        self.body = body
        self.remoteAddress = remoteAddress
        self.routePattern = routePattern
        self.startedAt = startedAt
    }

    /// The record of a request that reached no route, or could not be read at all.
    convenience init(method: HTTPMethod, path: String, routePattern: String, remoteAddress: String, startedAt: Double, http10: Bool) {
        self.init(method: method, target: RequestTarget(path: path, query: nil), path: path, queryString: "",
                  version: http10 ? .http1_0 : .http1_1, headers: HTTPHeaders(), noted: [], body: [], remoteAddress: remoteAddress,
                  routePattern: routePattern, startedAt: startedAt)
    }

    func copy() -> RequestRecord {
        RequestRecord(method: method, target: target, path: path, queryString: queryString, version: version, headers: headers,
                      noted: noted, body: body, remoteAddress: remoteAddress, routePattern: routePattern, startedAt: startedAt)
    }
}
