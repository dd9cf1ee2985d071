/// A `Setting` of any type, as the settings table reads it.
protocol AnySetting: Sendable {
    var value: any SettingValue { get }
    var kind: SettingKind { get }
    var doc: String { get }
    /// Why `value` is not allowed, naming the key; nil when it is.
    func refusal(_ value: any SettingValue, name: String) -> String?
}
