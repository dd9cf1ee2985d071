/// One segment of a route pattern; literals and suffixes are kept as the UTF-8 bytes a path is
/// compared with.
enum PatternSegment: Sendable, Equatable {
    case literal([UInt8])
    case parameter(name: String, suffix: [UInt8])
    case rest(name: String)
}
