import POSIX

/// Turning a request target into a file under the root, refusing every way out of it.
enum StaticPath {
    /// The decoded path relative to the root, from the raw target (not the router's decoded path,
    /// so that `%2F` and `%00` can be told apart from `/` and refused). One pass over the bytes:
    /// this runs for every static request.
    static func relative(target: String) throws -> String {
        var target = target
        let (path, hasEscapes) = try target.withUTF8 { bytes -> (String, Bool) in
            var end = 0
            var hasEscapes = false
            while end < bytes.count, bytes[end] != UInt8(ascii: "?") {
                let byte = bytes[end]
                if byte == UInt8(ascii: "\\") { throw HTTPError(.badRequest, "Backslashes are not allowed in file paths.") }
                if byte == UInt8(ascii: "%") {
                    hasEscapes = true
                    if end + 2 < bytes.count {
                        let high = bytes[end + 1], low = bytes[end + 2] | 0x20
                        if (high == UInt8(ascii: "2") && low == UInt8(ascii: "f")) || (high == UInt8(ascii: "5") && low == UInt8(ascii: "c"))
                            || (high == UInt8(ascii: "0") && low == UInt8(ascii: "0")) {
                            throw HTTPError(.badRequest, "Encoded slashes, backslashes and NUL are not allowed in file paths.")
                        }
                    }
                }
                end += 1
            }
            return (String(decoding: UnsafeBufferPointer(rebasing: bytes[0..<end]), as: UTF8.self), hasEscapes)
        }
        var decoded = path
        if hasEscapes {
            guard let value = HTTPRequest.percentDecode(path) else {
                throw HTTPError(.badRequest, "The path holds a malformed percent-escape.")
            }
            decoded = value
        }
        let (valid, emptySegments) = decoded.withUTF8 { bytes -> (Bool, Bool) in
            // Refuse NUL, and any segment that starts with a dot: `.`, `..`, and hidden files (.git, .env).
            var segmentStart = true, emptySegments = false
            for (index, byte) in bytes.enumerated() {
                if byte == 0 { return (false, false) }
                if segmentStart && byte == UInt8(ascii: ".") { return (false, false) }
                if segmentStart && byte == UInt8(ascii: "/") && index > 0 { emptySegments = true }
                segmentStart = byte == UInt8(ascii: "/")
            }
            return (true, emptySegments)
        }
        guard valid else { throw HTTPError(.notFound, "No file at \(decoded).") }
        if emptySegments { return decoded.split(separator: "/").joined(separator: "/") }
        // By bytes: hasPrefix and dropFirst on a String compare and step by Characters.
        let utf8 = decoded.utf8
        let relative = utf8.first == UInt8(ascii: "/") ? String(Substring(utf8.dropFirst())) : decoded
        return relative.isEmpty ? "index.html" : relative
    }

    /// The real path of `relative` under `realRoot` when, after resolving symlinks, it is still inside the root.
    static func resolve(_ relative: String, realRoot: String) -> String? {
        let base = realRoot.hasSuffix("/") ? realRoot : realRoot + "/"
        guard let real = realPath(base + relative), real.hasPrefix(base) else { return nil }
        return real
    }

    static func realPath(_ path: String) -> String? { FileSystem.realPath(path) }
}
