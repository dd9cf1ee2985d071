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
        let type = contentType.split(separator: ";", maxSplits: 1).first.map { $0.trimmingWhitespace().lowercased() } ?? ""
        if type.hasPrefix("text/") { return true }
        switch type {
        case "application/json", "application/javascript", "application/problem+json", "application/xml",
             "application/manifest+json", "image/svg+xml", "application/x-ndjson", "image/x-icon":
            return true
        default:
            return type.hasSuffix("+json") || type.hasSuffix("+xml")
        }
    }
}
