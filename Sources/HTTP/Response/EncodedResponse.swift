/// A response served many times unchanged (a cached file, a cached tile) whose header lines are
/// encoded once, when it is cached.
///
/// A plain GET or HEAD of it, with no condition, no range and no gzip to negotiate, skips the
/// preparation every other answer goes through: its head is the status line, the loop's `Date`
/// and `Server` lines and these bytes, copied in one piece. Any other request is prepared from
/// `response` as usual, so the answer is the same either way.
public final class EncodedResponse: Sendable {
    /// The response as the handler built it; what the generic preparation and tests see.
    public let response: HTTPResponse
    /// `response.status`, read without copying the response.
    let status: HTTPStatus
    /// The body bytes.
    let body: [UInt8]
    /// Every header line a plain GET's answer carries after `Server`, `Content-Length` included,
    /// each ending in CRLF, then the blank line that ends the head.
    let fieldLines: [UInt8]
    /// Whether a request accepting gzip could get another answer (a compressible, uncompressed body).
    let negotiatesGzip: Bool

    /// Encodes `status`, `headers` and `body` as a plain GET of them would be answered.
    public init(status: HTTPStatus = .ok, headers: HTTPHeaders, body: [UInt8]) {
        response = HTTPResponse(status: status, headers: headers, body: .bytes(body))
        self.status = status
        self.body = body
        let fields = PreparedResponse.ResponseFields(headers)
        negotiatesGzip = MediaType.isCompressible(fields.contentType ?? "") && !fields.hasContentEncoding
            && body.count >= PreparedResponse.minimumCompressibleBytes
        // The generic preparation of a plain GET decides which fields go out (Vary, Accept-Ranges,
        // no Connection or Transfer-Encoding): encoding its result keeps both paths identical.
        let prepared = PreparedResponse(response, for: HTTPRequest(method: .GET, target: "/"))
        fieldLines = ResponseHeadEncoder.fieldLines(prepared.headers, contentLength: prepared.contentLength)
    }

    /// The bytes after the loop's prefix: field lines, then the body unless for HEAD.
    func wireCount(withBody: Bool) -> Int { fieldLines.count + (withBody ? body.count : 0) }

    /// Whether `request` gets exactly the plain answer: a GET or HEAD without conditions or
    /// ranges, and without gzip on offer when the body could be compressed.
    func servesPlainly(_ request: HTTPRequest) -> Bool {
        guard request.method == .GET || request.method == .HEAD else { return false }
        // Noted as the head was read: a plain GET looks up no field here.
        let noted = request.noted
        if noted.isConditional || noted.contains(.range) { return false }
        return !negotiatesGzip || !noted.contains(.acceptEncoding) || !PreparedResponse.acceptsGzip(request.headers["Accept-Encoding"])
    }
}
