import HTTP

/// What tus 1.0 fixes: the version, the extensions this server offers, and its header fields.
enum TusProtocol {
    /// The only protocol version spoken (`Tus-Resumable`, `Tus-Version`).
    static let version = "1.0.0"
    /// Offered in `Tus-Extension`.
    static let extensions = "creation,creation-with-upload,termination,checksum,expiration"
    /// The media type of a PATCH body (and of a creation that carries data).
    static let offsetOctetStream = "application/offset+octet-stream"
    /// The status of a PATCH whose checksum does not match (tus checksum extension).
    static let checksumMismatch = HTTPStatus(460)

    /// Fields every answer carries.
    static var commonHeaders: HTTPHeaders {
        var headers = HTTPHeaders()
        headers.add("Tus-Resumable", version)
        headers.add("Cache-Control", "no-store")
        return headers
    }

    /// A header value that must be a non-negative decimal number (`Upload-Length`,
    /// `Upload-Offset`): digits only, at most 18 of them, so it fits with room to add.
    static func number(_ text: String?) -> Int? {
        guard let text, !text.isEmpty, text.utf8.count <= 18, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return Int(text)
    }
}

extension TusProtocol {
    /// `commonHeaders` and `extra`.
    static func headers(_ extra: KeyValuePairs<String, String>) -> HTTPHeaders {
        var headers = commonHeaders
        for (name, value) in extra { headers.add(name, value) }
        return headers
    }
}
