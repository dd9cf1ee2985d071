/// What a setting can hold: text, a whole number, a number or a switch.
public protocol SettingValue: Sendable, Equatable, Codable {
    static var kind: SettingKind { get }
}
