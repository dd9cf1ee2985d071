import Observability

/// A value a route answers with as JSON: declare the type, conform it, and return it from
/// `router.get`; `JSONWriter` writes it (members in declaration order) with status 200.
///
///     struct Albums: ResponseEncodable { let albums: [Album] }
///     router.get("/albums", lane: WorkLanes.catalog) { request in Albums(albums: …) }
///
/// Another status or headers: return `try HTTPResponse.json(value, status:headers:)` instead.
public protocol ResponseEncodable: Encodable, Sendable {}

extension Router {
    /// A GET route answering with a value as JSON.
    public mutating func get<Answer: ResponseEncodable>(_ pattern: String, execution: Execution = .worker, lane: WorkLane = .general,
                                                        _ handler: @escaping @Sendable (HTTPRequest) throws -> Answer) {
        add(.GET, pattern, execution: execution, lane: lane) { request in try .json(handler(request)) }
    }

    /// A POST route answering with a value as JSON (200).
    public mutating func post<Answer: ResponseEncodable>(_ pattern: String, maxBodyBytes: Int = Router.defaultMaxBodyBytes,
                                                         lane: WorkLane = .general,
                                                         _ handler: @escaping @Sendable (HTTPRequest) throws -> Answer) {
        add(.POST, pattern, maxBodyBytes: maxBodyBytes, execution: .worker, lane: lane) { request in try .json(handler(request)) }
    }
}
