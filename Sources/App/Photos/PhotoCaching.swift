import Foundation
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
        var query = query, version = version
        // Native strings are contiguous UTF-8: scanned and compared as buffers, without String
        // indices or a generic walk over the version's UTF-8 view.
        // nil: the value holds an escape, and full decoding decides.
        let found: Bool? = query.withUTF8 { bytes in
            var start = 0
            while start < bytes.count {
                var end = start
                while end < bytes.count, bytes[end] != UInt8(ascii: "&") { end += 1 }
                if end - start >= 2, bytes[start] == UInt8(ascii: "v"), bytes[start + 1] == UInt8(ascii: "=") {
                    let value = UnsafeBufferPointer(rebasing: bytes[(start + 2)..<end])
                    if value.contains(UInt8(ascii: "%")) || value.contains(UInt8(ascii: "+")) { return nil }
                    return version.withUTF8 { expected in
                        value.count == expected.count && (value.isEmpty || memcmp(value.baseAddress!, expected.baseAddress!, value.count) == 0)
                    }
                }
                start = end + 1
            }
            return false
        }
        if let found { return found }
        return HTTPRequest(method: .GET, target: "/?" + query).query("v") == version
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
