/// The two engines.
public enum SQLEngine: String, Sendable, Equatable, CaseIterable {
    case sqlite
    case postgres
}
