/// An XMP packet ("xmp-data"): the few properties a photo library shows, found by their usual
/// prefixes as attributes (`exif:DateTimeOriginal="…"`) or elements (`<tiff:Make>…</tiff:Make>`,
/// the first `rdf:li` of a list). Not a general XML parser: it reads, it never builds a tree,
/// and a packet larger than `maxBytes` is not read at all.
struct XMPPacket {
    /// Largest packet read; a JPEG's main packet is at most 64 KiB.
    static let maxBytes = 1 << 20

    private let text: [UInt8]

    /// nil when the packet is larger than `maxBytes`.
    init?(_ bytes: [UInt8]) {
        guard bytes.count <= Self.maxBytes else { return nil }
        text = bytes
    }

    /// The bytes of the first property named `name` ("exif:DateTimeOriginal"), entities decoded.
    func value(_ name: String) -> [UInt8]? {
        let needle = Array(name.utf8)
        var from = 0
        while let at = find(needle, from: from) {
            from = at + needle.count
            // A whole name: not the tail of a longer one, nor the head ("tiff:Make" in "tiff:MakeX").
            guard at > 0, isNameBoundary(text[at - 1]), from < text.count, !isNameByte(text[from]) else { continue }
            if text[at - 1] == UInt8(ascii: "<") {
                if let value = elementValue(after: from) { return value }
            } else if let value = attributeValue(after: from) {
                return value
            }
        }
        return nil
    }

    /// `="value"` or `='value'` after an attribute name.
    private func attributeValue(after start: Int) -> [UInt8]? {
        var i = skipSpace(start)
        guard i < text.count, text[i] == UInt8(ascii: "=") else { return nil }
        i = skipSpace(i + 1)
        guard i < text.count, text[i] == UInt8(ascii: "\"") || text[i] == UInt8(ascii: "'") else { return nil }
        let quote = text[i]
        guard let end = text[(i + 1)...].firstIndex(of: quote) else { return nil }
        return Self.decodeEntities(text[(i + 1)..<end])
    }

    /// The text of `<name>text</name>`, or of the first `<rdf:li>` inside it.
    private func elementValue(after start: Int) -> [UInt8]? {
        guard let close = text[start...].firstIndex(of: UInt8(ascii: ">")), text[close - 1] != UInt8(ascii: "/") else { return nil }
        var i = close + 1
        let contentStart = skipSpace(i)
        if contentStart < text.count, text[contentStart] == UInt8(ascii: "<"),
           text[contentStart...].starts(with: Array("<rdf:".utf8)) {
            // A list (rdf:Seq, rdf:Alt, rdf:Bag): its first item.
            guard let item = find(Array("<rdf:li".utf8), from: contentStart),
                  let itemClose = text[item...].firstIndex(of: UInt8(ascii: ">")) else { return nil }
            i = itemClose + 1
        }
        guard let end = text[i...].firstIndex(of: UInt8(ascii: "<")) else { return nil }
        return Self.decodeEntities(text[i..<end])
    }

    private func skipSpace(_ start: Int) -> Int {
        var i = start
        while i < text.count, [0x20, 0x09, 0x0A, 0x0D].contains(text[i]) { i += 1 }
        return i
    }

    private func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: ":")
    }

    private func isNameBoundary(_ byte: UInt8) -> Bool { !isNameByte(byte) }

    private func find(_ needle: [UInt8], from start: Int) -> Int? {
        guard !needle.isEmpty, needle.count <= text.count else { return nil }
        var i = start
        let last = text.count - needle.count
        while i <= last {
            if text[i] == needle[0], text[i..<(i + needle.count)].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }

    /// The five XML entities and numeric references; anything else is left as written.
    /// The bytes are returned as they decode; text checks (UTF-8, control characters) come later.
    static func decodeEntities(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = bytes.startIndex
        while i < bytes.endIndex {
            if bytes[i] == UInt8(ascii: "&"), let semicolon = bytes[i...].prefix(12).firstIndex(of: UInt8(ascii: ";")) {
                let name = String(decoding: bytes[(i + 1)..<semicolon], as: UTF8.self)
                var replacement: [UInt8]?
                switch name {
                case "amp": replacement = [UInt8(ascii: "&")]
                case "lt": replacement = [UInt8(ascii: "<")]
                case "gt": replacement = [UInt8(ascii: ">")]
                case "quot": replacement = [UInt8(ascii: "\"")]
                case "apos": replacement = [UInt8(ascii: "'")]
                default:
                    let code = name.hasPrefix("#x") ? UInt32(name.dropFirst(2), radix: 16)
                        : name.hasPrefix("#") ? UInt32(name.dropFirst(), radix: 10) : nil
                    if let code, let scalar = Unicode.Scalar(code) { replacement = Array(String(Character(scalar)).utf8) }
                }
                if let replacement {
                    out += replacement
                    i = semicolon + 1
                    continue
                }
            }
            out.append(bytes[i])
            i += 1
        }
        return out
    }
}
