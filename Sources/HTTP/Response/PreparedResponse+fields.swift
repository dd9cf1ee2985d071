/// The header fields that preparing a response consults, found in one pass over each list:
/// every answer goes through `PreparedResponse.init`, and a dozen separate lookups, each a scan
/// of the whole list, cost more than the rest of the preparation of a cached file.
extension PreparedResponse {
    /// What the handler's headers say; the first occurrence of each field, as `HTTPHeaders[_:]` returns.
    struct ResponseFields {
        var connection: String?
        var hasContentLength = false
        var hasTransferEncoding = false
        var contentType: String?
        var hasVary = false
        var hasContentEncoding = false
        var entityTag: String?
        var acceptRanges: String?

        init(_ headers: HTTPHeaders) {
            for field in headers {
                let name = field.name
                // The length picks the one candidate to compare, so most fields cost one comparison.
                switch name.utf8.count {
                case 4:
                    if name.caseInsensitiveEquals("Vary") { hasVary = true }
                    else if entityTag == nil && name.caseInsensitiveEquals("ETag") { entityTag = field.value }
                case 10:
                    if connection == nil && name.caseInsensitiveEquals("Connection") { connection = field.value }
                case 12:
                    if contentType == nil && name.caseInsensitiveEquals("Content-Type") { contentType = field.value }
                case 13:
                    if acceptRanges == nil && name.caseInsensitiveEquals("Accept-Ranges") { acceptRanges = field.value }
                case 14:
                    if name.caseInsensitiveEquals("Content-Length") { hasContentLength = true }
                case 16:
                    if name.caseInsensitiveEquals("Content-Encoding") { hasContentEncoding = true }
                case 17:
                    if name.caseInsensitiveEquals("Transfer-Encoding") { hasTransferEncoding = true }
                default:
                    break
                }
            }
        }
    }

    /// What the request asks of a GET or HEAD answer: ranges, encodings, conditions.
    struct RequestFields {
        var range: String?
        var ifRange: String?
        var acceptEncoding: String?
        var hasIfNoneMatch = false
        var hasIfModifiedSince = false

        /// None of them.
        init() {}

        init(_ headers: HTTPHeaders) {
            // Named as the parser notes them; the first value of each counts.
            // Only the values read are spelled out.
            for index in headers.indices {
                switch NotedFields.of(headers.name(at: index)) {
                case .range: if range == nil { range = headers.value(at: index) }
                case .ifRange: if ifRange == nil { ifRange = headers.value(at: index) }
                case .ifNoneMatch: hasIfNoneMatch = true
                case .acceptEncoding: if acceptEncoding == nil { acceptEncoding = headers.value(at: index) }
                case .ifModifiedSince: hasIfModifiedSince = true
                default: break
                }
            }
        }

        /// Whether the answer could be a 304 at all.
        var isConditional: Bool { hasIfNoneMatch || hasIfModifiedSince }
    }
}
