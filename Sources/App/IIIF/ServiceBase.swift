import HTTP

/// Where this server is, as the absolute URLs of IIIF documents need it: the configured
/// `publicURL`, or `http://` and the request's Host.
struct ServiceBase: Sendable {
    /// `https://photos.example.org`, without a trailing slash; empty to use the Host.
    let publicURL: String

    /// The scheme and authority for `request`, e.g. `http://127.0.0.1:8080`. A Host header that is
    /// not a host name (and an optional port) is a 400: it would end up in documents.
    func origin(of request: HTTPRequest) throws -> String {
        if !publicURL.isEmpty { return publicURL }
        guard let host = request.headers["Host"], !host.isEmpty else { return "http://localhost" }
        guard host.utf8.count <= 255, host.utf8.allSatisfy(Self.isHostByte) else {
            throw CrossOrigin.problem(.badRequest, "The Host header is not a host name with an optional port.")
        }
        return "http://" + host
    }

    private static func isHostByte(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
            || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ":")
            || byte == UInt8(ascii: "[") || byte == UInt8(ascii: "]") || byte == UInt8(ascii: "_")
    }
}
