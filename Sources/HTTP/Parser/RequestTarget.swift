/// A request-target as sent, cut at its first `?`: routing needs the parts, and the whole is
/// spelled out again only when asked for, so a request builds one string fewer.
struct RequestTarget: Sendable, Equatable {
    /// Up to the `?`, or all of it, e.g. `/photos/3/tiles/2/1/0.jpg`.
    var path: String
    /// After the `?`; nil when there is no `?`.
    var query: String?
    /// Whether the path holds a `%`, i.e. needs percent-decoding.
    var pathHasEscapes: Bool

    init(path: String, query: String?, pathHasEscapes: Bool) {
        self.path = path
        self.query = query
        self.pathHasEscapes = pathHasEscapes
    }

    init(path: String, query: String?) {
        self.init(path: path, query: query, pathHasEscapes: path.utf8.contains(UInt8(ascii: "%")))
    }

    /// Cuts `target` at its first `?`.
    init(_ target: String) {
        var target = target
        let parts: (String, String)? = target.withUTF8 { bytes in
            guard let q = bytes.firstIndex(of: UInt8(ascii: "?")) else { return nil }
            return (String(decoding: UnsafeBufferPointer(rebasing: bytes[..<q]), as: UTF8.self),
                    String(decoding: UnsafeBufferPointer(rebasing: bytes[(q + 1)...]), as: UTF8.self))
        }
        if let (path, query) = parts {
            self.init(path: path, query: query)
        } else {
            self.init(path: target, query: nil)
        }
    }

    /// The target as sent.
    var text: String { query.map { path + "?" + $0 } ?? path }
}
