/// The one rule that turns text into the words the index holds and a query asks for, so that
/// both sides agree whatever engine stores them: compatibility decomposition (NFKD), diacritics
/// dropped, case folded, and split into runs of letters and digits.
///
/// `São Paulo` gives `sao`, `paulo`; `ILCE-7M3` gives `ilce`, `7m3`; `Straße` gives `strasse`;
/// the full-width `ＸＴ４` gives `xt4`.
public enum SearchFolding {
    /// The text decomposed, without its combining marks, in lower case.
    public static func fold(_ text: some StringProtocol) -> String {
        var folded = String.UnicodeScalarView()
        for scalar in String(text).decomposedStringWithCompatibilityMapping.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .spacingMark, .enclosingMark:
                continue
            default:
                folded.append(contentsOf: foldCase(scalar))
            }
        }
        return String(folded)
    }

    /// The folded text's words: maximal runs of letters and digits, anything else separates.
    public static func words(_ text: some StringProtocol) -> [String] {
        var words: [String] = []
        var word = String.UnicodeScalarView()
        for scalar in fold(text).unicodeScalars {
            if isWordScalar(scalar) {
                word.append(scalar)
            } else if !word.isEmpty {
                words.append(String(word))
                word = String.UnicodeScalarView()
            }
        }
        if !word.isEmpty { words.append(String(word)) }
        return words
    }

    /// Whether a scalar belongs to a word: a letter or a digit of any script.
    static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        let properties = scalar.properties
        return properties.isAlphabetic || properties.numericType != nil
    }

    /// Lower case, with the folds lower case alone misses (`ß` is `ss`, final sigma is sigma).
    private static func foldCase(_ scalar: Unicode.Scalar) -> String.UnicodeScalarView {
        switch scalar {
        case "ß", "ẞ": return "ss".unicodeScalars
        case "ς": return "σ".unicodeScalars
        default: return scalar.properties.lowercaseMapping.unicodeScalars
        }
    }
}
