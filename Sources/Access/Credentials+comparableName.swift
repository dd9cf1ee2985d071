import Foundation

extension Credentials {
    /// An account name as names are compared when someone not signed in would take one:
    /// compatibility-normalised (NFKC), case-folded (full folding: "ß" is "ss") and normalised
    /// again, without surrounding white space. "ＡＮＡ", "Ana" and "ana " all give "ana", so a
    /// name that merely looks like an account's on the page counts as that account's.
    public static func comparable(name: String) -> String {
        name.precomposedStringWithCompatibilityMapping
            .folding(options: [.caseInsensitive], locale: nil)
            .precomposedStringWithCompatibilityMapping
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
