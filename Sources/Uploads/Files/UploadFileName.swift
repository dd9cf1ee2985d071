/// Turns the name a client gave its file into a safe name for the photos folder: no folder
/// parts of any kind survive (`../../etc/passwd` is `passwd`), nothing hidden, no control or
/// direction-changing characters, at most 200 bytes, and an extension that matches what the
/// bytes are.
public enum UploadFileName {
    /// Longest name kept, in UTF-8 bytes (file systems allow 255; room is left for " (99)").
    public static let maxBytes = 200

    /// The last component of `name`, cleaned; nil when nothing usable is left.
    public static func sanitized(_ name: String) -> String? {
        // Either slash separates folders for someone: Windows clients send `C:\Users\…`.
        let last = name.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? ""
        var kept = String.UnicodeScalarView()
        for scalar in last.unicodeScalars where !isRefused(scalar) { kept.append(scalar) }
        var text = String(kept)
        // Leading dots would hide the file (or make it `.` or `..`); trailing dots and spaces
        // are dropped by some systems and confuse people.
        while let first = text.first, first == "." || first == " " { text.removeFirst() }
        while let last = text.last, last == "." || last == " " { text.removeLast() }
        guard !text.isEmpty else { return nil }
        return shortened(text)
    }

    /// The file name for bytes of `mediaType`: the client's stem (or `fallbackStem`) and an
    /// extension the library reads as that format, the client's own when it already is one.
    public static func named(_ sanitized: String?, mediaType: String, fallbackStem: String) -> String {
        let allowed = extensions(for: mediaType)
        let name = sanitized ?? fallbackStem
        var stem = name
        if let dot = name.lastIndex(of: ".") {
            let ext = name[name.index(after: dot)...].lowercased()
            if allowed.contains(ext) { return name }
            if ext.count <= 5 && !ext.isEmpty { stem = String(name[..<dot]) }
        }
        if stem.isEmpty { stem = fallbackStem }
        return shortened(stem + "." + (allowed.first ?? "bin"))
    }

    /// Extensions of a media type, the usual one first.
    public static func extensions(for mediaType: String) -> [String] {
        switch mediaType {
        case "image/jpeg": ["jpg", "jpeg", "jpe"]
        case "image/png": ["png"]
        case "image/webp": ["webp"]
        case "image/tiff": ["tif", "tiff"]
        case "image/gif": ["gif"]
        case "image/heic": ["heic", "heif"]
        case "image/avif": ["avif"]
        default: []
        }
    }

    /// `name` with ` (n)` before its extension: the next name to try when one is taken.
    public static func numbered(_ name: String, _ n: Int) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "\(name) (\(n))" }
        return "\(name[..<dot]) (\(n))\(name[dot...])"
    }

    private static func isRefused(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1f, 0x7f...0x9f: true               // C0, DEL, C1 controls
        case 0x200e, 0x200f, 0x202a...0x202e, 0x2066...0x2069: true  // direction marks and overrides
        case 0x2028, 0x2029, 0xfeff: true                  // line and paragraph separators, BOM
        case 0xfe00...0xfe0f: false
        default: scalar == ":" || scalar == "*" || scalar == "?" || scalar == "\"" || scalar == "<" || scalar == ">" || scalar == "|"
        }
    }

    /// `text` cut to `maxBytes` of UTF-8 on a character boundary, its extension kept.
    private static func shortened(_ text: String) -> String {
        guard text.utf8.count > maxBytes else { return text }
        var ext = ""
        var stem = text
        if let dot = text.lastIndex(of: "."), text.distance(from: dot, to: text.endIndex) <= 6 {
            ext = String(text[dot...])
            stem = String(text[..<dot])
        }
        while stem.utf8.count + ext.utf8.count > maxBytes { stem.removeLast() }
        return stem + ext
    }
}
