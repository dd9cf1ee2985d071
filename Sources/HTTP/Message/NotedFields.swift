/// Which of the request fields that change an answer a request carries: noted once, as the
/// parser reads the head, so that answering a plain GET (nearly every tile and file) looks up
/// no field by name afterwards.
///
/// Kept with the request's headers and noted again whenever they are replaced, so it always
/// says what `headers` holds.
struct NotedFields: OptionSet, Sendable {
    let rawValue: UInt8

    static let range = NotedFields(rawValue: 1 << 0)
    static let ifRange = NotedFields(rawValue: 1 << 1)
    static let ifNoneMatch = NotedFields(rawValue: 1 << 2)
    static let ifModifiedSince = NotedFields(rawValue: 1 << 3)
    static let acceptEncoding = NotedFields(rawValue: 1 << 4)
    static let connection = NotedFields(rawValue: 1 << 5)
    /// Credentials, noted so that the access check of a request without any looks up nothing.
    static let cookie = NotedFields(rawValue: 1 << 6)
    static let authorization = NotedFields(rawValue: 1 << 7)

    /// The fields that can make a GET's answer other than the plain one: a 304, a 206, gzip.
    static let shapingAnswer: NotedFields = [.range, .ifRange, .ifNoneMatch, .ifModifiedSince, .acceptEncoding]

    init(rawValue: UInt8) { self.rawValue = rawValue }

    /// The fields of `headers`, looked at one by one.
    init(_ headers: HTTPHeaders) {
        var noted = NotedFields()
        for name in headers.names { noted.formUnion(Self.of(name)) }
        self = noted
    }

    /// Whether an answer could be a 304.
    var isConditional: Bool { !isDisjoint(with: [.ifNoneMatch, .ifModifiedSince]) }

    /// The flag of the field `name` (in any case), or none. Settled by the length and first
    /// letter for nearly every name; only a name that passes both is compared whole.
    @inline(__always)
    static func of(_ name: String) -> NotedFields {
        guard let first = name.utf8.first else { return [] }
        let letter = first | 0x20
        switch name.utf8.count {
        case 5: return letter == UInt8(ascii: "r") && name.caseInsensitiveEquals("Range") ? .range : []
        case 6: return letter == UInt8(ascii: "c") && name.caseInsensitiveEquals("Cookie") ? .cookie : []
        case 8: return letter == UInt8(ascii: "i") && name.caseInsensitiveEquals("If-Range") ? .ifRange : []
        case 10: return letter == UInt8(ascii: "c") && name.caseInsensitiveEquals("Connection") ? .connection : []
        case 13:
            if letter == UInt8(ascii: "i") { return name.caseInsensitiveEquals("If-None-Match") ? .ifNoneMatch : [] }
            return letter == UInt8(ascii: "a") && name.caseInsensitiveEquals("Authorization") ? .authorization : []
        case 15: return letter == UInt8(ascii: "a") && name.caseInsensitiveEquals("Accept-Encoding") ? .acceptEncoding : []
        case 17: return letter == UInt8(ascii: "i") && name.caseInsensitiveEquals("If-Modified-Since") ? .ifModifiedSince : []
        default: return []
        }
    }
}
