import Foundation
import Observability

/// The settings table: read from `Configuration`'s declarations, written as `config.json` and
/// as the README's table.
extension Configuration {
    /// Every setting, in declaration order, read once from the declarations themselves.
    public static let settings: [SettingDescription] = Mirror(reflecting: Configuration()).children.compactMap { child in
        // A wrapped property's storage is `_name`.
        guard let label = child.label, label.hasPrefix("_"), let setting = child.value as? any AnySetting else { return nil }
        return SettingDescription(name: String(label.dropFirst()), kind: setting.kind, defaultValue: setting.value,
                                  doc: setting.doc, setting: setting)
    }

    /// The key names, for messages.
    public static var keyNames: [String] { settings.map(\.name) }

    /// The setting named `name`.
    static func setting(_ name: String) -> SettingDescription? { settings.first { $0.name == name } }

    /// Every setting's current value, in declaration order.
    var values: [(name: String, value: any SettingValue)] {
        Mirror(reflecting: self).children.compactMap { child in
            guard let label = child.label, label.hasPrefix("_"), let setting = child.value as? any AnySetting else { return nil }
            return (String(label.dropFirst()), setting.value)
        }
    }

    /// The settings as a JSON object in declaration order, as `config.json` holds them.
    public func json() -> String {
        let lines = values.map { "  \"\($0.name)\": \(SettingDescription.json($0.value))" }
        return "{\n" + lines.joined(separator: ",\n") + "\n}\n"
    }

    /// The README's table of settings.
    public static var markdownTable: String {
        (["| key | default | meaning |", "| --- | --- | --- |"] + settings.map(\.markdownRow)).joined(separator: "\n") + "\n"
    }

    /// These settings with `overrides` (by key name, values of each key's type) applied.
    func applying(_ overrides: [String: any SettingValue]) throws -> Configuration {
        guard !overrides.isEmpty else { return self }
        struct Values: Encodable {
            let values: [(name: String, value: any SettingValue)]
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: Name.self)
                for (name, value) in values { try container.encode(value, forKey: Name(name)) }
            }
        }
        struct Name: CodingKey {
            let stringValue: String
            var intValue: Int? { nil }
            init(_ name: String) { stringValue = name }
            init?(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }
        let merged = values.map { (name: $0.name, value: overrides[$0.name] ?? $0.value) }
        // Every key, each in its own type, through the one writer and back through the
        // declarations' synthesized decoding: nothing but the declarations lists the keys.
        return try JSONDecoder().decode(Configuration.self, from: Data(JSONWriter.bytes(Values(values: merged))))
    }
}
