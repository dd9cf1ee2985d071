public enum SettingKind: Sendable {
    case string, int, double, bool
}
