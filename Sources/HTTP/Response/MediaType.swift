/// Content types by file extension, and which types are worth compressing.
public enum MediaType {
    /// The Content-Type for a file name's extension; `application/octet-stream` when unknown.
    public static func forPath(_ path: String) -> String {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return "application/octet-stream" }
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
        var type = Substring(contentType)
        if let semicolon = type.firstIndex(of: ";") { type = type[..<semicolon] }
        while type.last == " " { type = type.dropLast() }
        while type.first == " " { type = type.dropFirst() }
        if hasPrefixIgnoringCase(type, "text/") { return true }
        for known in compressibleTypes where equalsIgnoringCase(type, known) { return true }
        return hasSuffixIgnoringCase(type, "+json") || hasSuffixIgnoringCase(type, "+xml")
    }

    static let compressibleTypes = ["application/json", "application/javascript", "application/xml",
                                    "image/svg+xml", "application/x-ndjson", "image/x-icon", "application/wasm"]

    static func lower(_ c: UInt8) -> UInt8 { c >= 65 && c <= 90 ? c | 0x20 : c }

    static func equalsIgnoringCase(_ a: Substring, _ b: String) -> Bool {
        a.utf8.count == b.utf8.count && zip(a.utf8, b.utf8).allSatisfy { lower($0) == lower($1) }
    }

    static func hasPrefixIgnoringCase(_ a: Substring, _ prefix: String) -> Bool {
        a.utf8.count >= prefix.utf8.count && zip(a.utf8, prefix.utf8).allSatisfy { lower($0) == lower($1) }
    }

    static func hasSuffixIgnoringCase(_ a: Substring, _ suffix: String) -> Bool {
        a.utf8.count >= suffix.utf8.count && zip(a.utf8.suffix(suffix.utf8.count), suffix.utf8).allSatisfy { lower($0) == lower($1) }
    }
}
