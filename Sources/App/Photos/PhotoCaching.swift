import Foundation
import HTTP
import POSIX

/// Conditional requests of photo resources.
enum PhotoCaching {

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
                        value.count == expected.count && (value.isEmpty || Memory.equal(value.baseAddress!, expected.baseAddress!, count: value.count))
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
