/// The checks every piece of text from a photo's metadata passes before anyone sees it.
enum MetadataText {
    /// Longest name of a camera, model or lens kept; real ones are under 64 characters.
    static let maxCharacters = 128

    /// What became of a piece of text.
    enum Outcome: Equatable {
        /// Text worth showing: trimmed, inner runs of white space made one space.
        case text(String)
        /// Nothing there (empty, blanks): not a fault, nothing to log.
        case absent
        /// Something there that is not fit to show, and why.
        case unusable(String)
    }

    /// UTF-8 (which covers ASCII) is taken as it is; bytes that are not UTF-8 are refused rather
    /// than guessed at, as are control characters other than white space, and text too long.
    static func clean(_ bytes: [UInt8], limit: Int = maxCharacters) -> Outcome {
        // Cameras pad fixed-size fields with NULs or blanks; the first NUL ends the text.
        let trimmed = bytes.prefix { $0 != 0 }
        guard trimmed.count <= limit * 4 else { return .unusable("is \(trimmed.count) bytes long, more than \(limit) characters") }
        guard let decoded = String(validating: trimmed, as: UTF8.self) else { return .unusable("is not UTF-8 text") }
        return clean(decoded, limit: limit)
    }

    static func clean(_ text: String, limit: Int = maxCharacters) -> Outcome {
        var out = ""
        var pendingSpace = false
        for scalar in text.unicodeScalars {
            if scalar.properties.isWhitespace {
                pendingSpace = !out.isEmpty
                continue
            }
            // Control characters, and the invisible ones that reorder text (bidi overrides):
            // they would make a caption lie about what it says.
            if scalar.properties.generalCategory == .control || (0x202A...0x202E).contains(scalar.value)
                || (0x2066...0x2069).contains(scalar.value) || scalar.value == 0xFEFF {
                return .unusable("holds control characters")
            }
            if pendingSpace { out.unicodeScalars.append(" ") }
            pendingSpace = false
            out.unicodeScalars.append(scalar)
        }
        if out.isEmpty { return .absent }
        if out.count > limit { return .unusable("is \(out.count) characters long, more than \(limit)") }
        return .text(out)
    }
}
