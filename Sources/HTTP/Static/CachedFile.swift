/// One cached file: its bytes, its headers, and once asked for, its gzip encoding.
final class CachedFile: Sendable {
    let bytes: [UInt8]
    let headers: HTTPHeaders
    let gzipped: [UInt8]?
    let gzipHeaders: HTTPHeaders
    /// Whether the content type is worth gzipping.
    let compressible: Bool
    /// Both answers, built once with their head fields encoded: a hit hands one out as it is.
    private let identityAnswer: EncodedResponse
    private let gzipAnswer: EncodedResponse?

    init(bytes: [UInt8], headers: HTTPHeaders, compressible: Bool, gzipped: [UInt8]?) {
        self.bytes = bytes
        self.compressible = compressible
        self.headers = headers
        self.gzipped = gzipped
        var gzipHeaders = headers
        gzipHeaders.set("Content-Encoding", "gzip")
        gzipHeaders.remove("Accept-Ranges")
        gzipHeaders.set("ETag", EntityTag.variant(headers["ETag"] ?? "", suffix: "gzip"))
        self.gzipHeaders = gzipHeaders
        identityAnswer = EncodedResponse(headers: headers, body: bytes)
        gzipAnswer = gzipped.map { EncodedResponse(headers: gzipHeaders, body: $0) }
    }

    /// The answer for this file, gzipped when asked and available.
    func answer(gzip: Bool) -> EncodedResponse {
        if gzip, let gzipAnswer { return gzipAnswer }
        return identityAnswer
    }

    /// The headers every static answer carries.
    static func headers(identity: FileIdentity, contentType: String, compressible: Bool) -> HTTPHeaders {
        var headers: HTTPHeaders = [
            "Content-Type": contentType,
            "Cache-Control": "no-cache",
            "ETag": identity.entityTag,
            "Last-Modified": HTTPDate.format(identity.modifiedSeconds),
        ]
        if compressible { headers.add("Vary", "Accept-Encoding") }
        headers.add("Accept-Ranges", "bytes")
        return headers
    }
}
