import HTTP

/// Conditional requests and cache lifetimes of photo resources.
enum PhotoCaching {
    /// For URLs that carry the current `?v=`: the bytes behind them never change.
    static let immutable = "public, max-age=31536000, immutable"
    /// Without `?v=`, or with a stale one: current bytes, kept briefly, since the file may change.
    static let short = "public, max-age=60"
    /// Photo JSON changes with every comment: always revalidate (cheap, thanks to the ETag).
    static let revalidate = "no-cache"

    /// The Cache-Control for an image of a photo at `version`.
    static func cacheControl(_ request: HTTPRequest, version: String) -> String {
        carriesVersion(request.queryString, version) ? immutable : short
    }

    /// Whether the query's first `v` is `version`. Scans the raw bytes (this runs for every hot
    /// tile); escapes, which a version never needs, fall back to full query decoding.
    static func carriesVersion(_ query: String, _ version: String) -> Bool {
        var utf8 = query.utf8[...]
        while !utf8.isEmpty {
            let end = utf8.firstIndex(of: UInt8(ascii: "&")) ?? utf8.endIndex
            let item = utf8[utf8.startIndex..<end]
            if item.first == UInt8(ascii: "v"), item.dropFirst().first == UInt8(ascii: "=") {
                let value = item.dropFirst(2)
                if value.contains(UInt8(ascii: "%")) || value.contains(UInt8(ascii: "+")) {
                    return HTTPRequest(method: .GET, target: "/?" + query).query("v") == version
                }
                return value.elementsEqual(version.utf8)
            }
            utf8 = end == utf8.endIndex ? utf8[end...] : utf8[utf8.index(after: end)...]
        }
        return false
    }

    /// Whether the request's If-None-Match names `etag` (or `*`); weak forms compare too, as RFC 9110 says for GET.
    static func notModified(_ request: HTTPRequest, etag: String) -> Bool {
        guard let header = request.headers["If-None-Match"] else { return false }
        for candidate in header.split(separator: ",") {
            var tag = candidate.trimmingCharacters(in: .whitespaces)
            if tag == "*" { return true }
            if tag.hasPrefix("W/") { tag.removeFirst(2) }
            if tag == etag { return true }
        }
        return false
    }

    /// A 304 carrying the validators a 200 would carry.
    static func notModifiedResponse(etag: String, cacheControl: String) -> HTTPResponse {
        HTTPResponse(status: .notModified, headers: ["ETag": etag, "Cache-Control": cacheControl])
    }
}
