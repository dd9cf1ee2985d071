#if canImport(Glibc)
import Glibc
#endif

/// Turning a request target into a file under the root, refusing every way out of it.
enum StaticPath {
    /// The decoded path relative to the root, from the raw target (not the router's decoded path,
    /// so that `%2F` and `%00` can be told apart from `/` and refused).
    static func relative(target: String) throws -> String {
        let rawPath = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        let lower = rawPath.lowercased()
        if lower.contains("%2f") || lower.contains("%5c") || lower.contains("%00") || rawPath.contains("\\") {
            throw HTTPError(.badRequest, "Encoded slashes, backslashes and NUL are not allowed in file paths.")
        }
        guard let decoded = HTTPRequest.percentDecode(rawPath) else {
            throw HTTPError(.badRequest, "The path holds a malformed percent-escape.")
        }
        if decoded.utf8.contains(0) { throw HTTPError(.badRequest, "NUL is not allowed in file paths.") }
        var parts: [Substring] = []
        for segment in decoded.split(separator: "/", omittingEmptySubsequences: true) {
            if segment == ".." || segment == "." {
                throw HTTPError(.notFound, "No file at \(decoded).")
            }
            // Hidden files (.git, .env) are never part of the page.
            if segment.hasPrefix(".") { throw HTTPError(.notFound, "No file at \(decoded).") }
            parts.append(segment)
        }
        if parts.isEmpty { return "index.html" }
        return parts.joined(separator: "/")
    }

    /// The real path of `relative` under `realRoot` when, after resolving symlinks, it is still inside the root.
    static func resolve(_ relative: String, realRoot: String) -> String? {
        let base = realRoot.hasSuffix("/") ? realRoot : realRoot + "/"
        guard let real = realPath(base + relative), real.hasPrefix(base) else { return nil }
        return real
    }

    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
