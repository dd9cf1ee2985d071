/// Content types by file extension, and which types are worth compressing.
public enum MediaType {
    /// The Content-Type for a file name's extension; `application/octet-stream` when unknown.
    public static func forPath(_ path: String) -> String {
        guard let dot = path.utf8.lastIndex(of: UInt8(ascii: ".")), !path.utf8[dot...].contains(UInt8(ascii: "/")) else {
            return "application/octet-stream"
        }
        return byExtension[path[path.index(after: dot)...].lowercased()] ?? "application/octet-stream"
    }

    static let byExtension: [String: String] = [
        "html": "text/html; charset=utf-8", "htm": "text/html; charset=utf-8",
        "js": "text/javascript; charset=utf-8", "mjs": "text/javascript; charset=utf-8",
        "css": "text/css; charset=utf-8", "json": "application/json; charset=utf-8",
        "map": "application/json; charset=utf-8", "webmanifest": "application/manifest+json",
        "txt": "text/plain; charset=utf-8", "md": "text/markdown; charset=utf-8", "xml": "application/xml",
        "svg": "image/svg+xml", "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg",
        "gif": "image/gif", "webp": "image/webp", "avif": "image/avif", "ico": "image/x-icon",
        "woff": "font/woff", "woff2": "font/woff2", "ttf": "font/ttf", "otf": "font/otf",
        "wasm": "application/wasm", "pdf": "application/pdf", "mp4": "video/mp4", "webm": "video/webm",
    ]

    /// Whether gzip helps a body of this type: text, JSON, JavaScript, SVG, XML. Never JPEG or PNG.
    public static func isCompressible(_ contentType: String) -> Bool {
        // Called for every response: compare bytes in place rather than building lowercased strings.
        var contentType = contentType
        return contentType.withUTF8 { bytes in
            var start = 0, end = 0
            while end < bytes.count, bytes[end] != UInt8(ascii: ";") { end += 1 }
            while end > start, bytes[end - 1] == 32 { end -= 1 }
            while start < end, bytes[start] == 32 { start += 1 }
            let type = UnsafeBufferPointer(rebasing: bytes[start..<end])
            if hasPrefix(type, textPrefix) { return true }
            for known in compressibleTypes where known.count == type.count && hasPrefix(type, known) { return true }
            return hasSuffix(type, jsonSuffix) || hasSuffix(type, xmlSuffix)
        }
    }

    static let textPrefix = Array("text/".utf8)
    static let jsonSuffix = Array("+json".utf8)
    static let xmlSuffix = Array("+xml".utf8)
    static let compressibleTypes = ["application/json", "application/javascript", "application/xml",
                                    "application/x-ndjson", "image/x-icon", "application/wasm"].map { Array($0.utf8) }

    @inline(__always)
    static func lower(_ c: UInt8) -> UInt8 { c >= 65 && c <= 90 ? c | 0x20 : c }

    static func hasPrefix(_ bytes: UnsafeBufferPointer<UInt8>, _ prefix: [UInt8]) -> Bool {
        guard bytes.count >= prefix.count else { return false }
        for i in 0..<prefix.count where lower(bytes[i]) != prefix[i] { return false }
        return true
    }

    static func hasSuffix(_ bytes: UnsafeBufferPointer<UInt8>, _ suffix: [UInt8]) -> Bool {
        guard bytes.count >= suffix.count else { return false }
        let offset = bytes.count - suffix.count
        for i in 0..<suffix.count where lower(bytes[offset + i]) != suffix[i] { return false }
        return true
    }
}
