/// Why a lane refused a job, as the client is told.
public struct WorkRefusal: Sendable, Equatable {
    /// 429 when the client has too much waiting, 503 when the lane has.
    public var status: HTTPStatus
    public var detail: String
    /// The `Retry-After` value: about how long the work already waiting takes.
    public var retryAfterSeconds: Int
}
