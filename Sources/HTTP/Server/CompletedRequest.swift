/// A finished request, reported to the observer for metrics.
///
/// It reads its method, path, route and peer from the server's record of the request: every
/// answered request makes one, and one reference costs less than copying four strings.
public struct CompletedRequest: Sendable {
    let record: RequestRecord
    public var method: HTTPMethod { record.method }
    public var path: String { record.path }
    /// The matched route pattern, or "" when none matched.
    public var routePattern: String { record.routePattern }
    public var status: HTTPStatus
    public var bytesSent: Int
    public var durationSeconds: Double
    public var remoteAddress: String { record.remoteAddress }

    public init(method: HTTPMethod, path: String, routePattern: String, status: HTTPStatus, bytesSent: Int, durationSeconds: Double, remoteAddress: String) {
        self.init(record: RequestRecord(method: method, path: path, routePattern: routePattern, remoteAddress: remoteAddress, startedAt: 0, http10: false),
                  status: status, bytesSent: bytesSent, durationSeconds: durationSeconds)
    }

    init(record: RequestRecord, status: HTTPStatus, bytesSent: Int, durationSeconds: Double) {
        self.record = record
        self.status = status
        self.bytesSent = bytesSent
        self.durationSeconds = durationSeconds
    }
}
