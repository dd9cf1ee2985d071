/// What PhotoScroll needs to know of an embedded ICC profile, read from its bytes.
///
/// Converting through a profile costs about a quarter of a large photo's ingest; a photo that
/// says it is sRGB already is what the tiles need, so its conversion is skipped.
struct ICCProfile {
    /// The profile's colour space signature, e.g. "RGB ", "CMYK", "GRAY".
    let colourSpace: String
    /// The profile's description (its 'desc' tag), e.g. "sRGB IEC61966-2.1", "Display P3".
    let description: String

    /// Parses the header and the description; nil when the bytes are not a readable profile.
    init?(_ bytes: [UInt8]) {
        guard bytes.count >= 132, let space = String(bytes: bytes[16..<20], encoding: .ascii) else { return nil }
        colourSpace = space
        let tags = Int(Self.uint32(bytes, 128))
        var description: String?
        for index in 0..<min(tags, 256) {
            let entry = 132 + 12 * index
            guard entry + 12 <= bytes.count else { return nil }
            guard bytes[entry..<entry + 4].elementsEqual("desc".utf8) else { continue }
            let offset = Int(Self.uint32(bytes, entry + 4)), size = Int(Self.uint32(bytes, entry + 8))
            guard offset >= 0, size >= 12, offset + size <= bytes.count else { return nil }
            description = Self.text(Array(bytes[offset..<offset + size]))
        }
        guard let description else { return nil }
        self.description = description
    }

    /// An RGB profile that names itself sRGB (not a linear variant): its pixels already are sRGB.
    var isSRGB: Bool {
        let name = description.lowercased()
        return colourSpace == "RGB " && name.contains("srgb") && !name.contains("linear")
    }

    /// ICC v2 'desc' (ASCII) or v4 'mluc' (UTF-16BE, first record) text.
    private static func text(_ tag: [UInt8]) -> String? {
        if tag.starts(with: "desc".utf8) {
            let count = Int(uint32(tag, 8))
            guard count > 0, 12 + count <= tag.count else { return nil }
            return String(decoding: tag[12..<12 + count].prefix { $0 != 0 }, as: UTF8.self)
        }
        if tag.starts(with: "mluc".utf8), tag.count >= 28, uint32(tag, 8) > 0 {
            let length = Int(uint32(tag, 20)), offset = Int(uint32(tag, 24))
            guard offset + length <= tag.count else { return nil }
            let units = stride(from: offset, to: offset + length - 1, by: 2).map { UInt16(tag[$0]) << 8 | UInt16(tag[$0 + 1]) }
            return String(decoding: units, as: UTF16.self)
        }
        return nil
    }

    private static func uint32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        bytes[at..<at + 4].reduce(0) { $0 << 8 | UInt32($1) }
    }
}
