/// One segment of a compiled pattern: a literal, or a parameter with its suffix (`count` bytes
/// of the route's `literalBytes` from `start`), or the rest of the path.
struct MatchStep: Sendable {
    enum Kind: Sendable { case literal, parameter, rest }
    var kind: Kind
    var start: Int
    var count: Int
}
