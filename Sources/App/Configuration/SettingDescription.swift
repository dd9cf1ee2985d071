import Foundation
import Observability

/// One row of the settings table, as `Configuration`'s declarations give it: what the parser,
/// the flags, the environment, `config.json` and the README's table all come from.
public struct SettingDescription: Sendable {
    /// The key in `config.json` (`tileCacheMegabytes`).
    public let name: String
    public let kind: SettingKind
    /// The default, as the declaration gives it.
    public let defaultValue: any SettingValue
    /// The README's "meaning" cell.
    public let doc: String
    let setting: any AnySetting

    /// `tileCacheMegabytes` → `PHOTOSCROLL_TILE_CACHE_MEGABYTES`; a run of capitals is one
    /// word (`publicURL` → `PHOTOSCROLL_PUBLIC_URL`).
    public var environmentName: String { "PHOTOSCROLL_" + Self.words(name, separator: "_").uppercased() }

    /// `tileCacheMegabytes` → `tile-cache-megabytes`, the flag spelling (`publicURL` → `public-url`).
    public var flagName: String { Self.words(name, separator: "-").lowercased() }

    static func words(_ name: String, separator: Character) -> String {
        var out = ""
        var previous: Character = separator
        for c in name {
            if c.isUppercase && !previous.isUppercase { out.append(separator) }
            out.append(c)
            previous = c
        }
        return out
    }

    /// Why `value` is not allowed (a range or list in the declaration), naming the key; nil when it is.
    func refusal(_ value: any SettingValue) -> String? { setting.refusal(value, name: name) }

    /// The value as `config.json` spells it (`"text"`, `8080`, `10.0`, `true`).
    static func json(_ value: any SettingValue) -> String {
        switch value {
        case let text as String: jsonString(text)
        case let number as Double: number == number.rounded() && abs(number) < 1e15 ? String(format: "%.1f", number) : String(number)
        default: "\(value)"
        }
    }

    /// The value as the README's table spells it, in backticks (`` `""` `` for empty text, `10` for 10.0).
    static func markdown(_ value: any SettingValue) -> String {
        switch value {
        case let text as String: text.isEmpty ? "`\"\"`" : "`\(text)`"
        case let number as Double: number == number.rounded() && abs(number) < 1e15 ? "`\(Int(number))`" : "`\(number)`"
        default: "`\(value)`"
        }
    }

    /// The row of the README's table: `` | `name` | `default` | doc | ``.
    public var markdownRow: String { "| `\(name)` | \(Self.markdown(defaultValue)) | \(doc) |" }
}
