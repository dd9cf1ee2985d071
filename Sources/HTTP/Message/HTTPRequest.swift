import Foundation

/// A complete request as handed to a route: head parsed, body de-chunked and bounded.
///
/// The fields live in one shared box, copied only when a copy is changed: a request passes by
/// value from the parser to the route and on to the response, and copying ten strings and
/// arrays at each step cost more than the rest of routing a request.
public struct HTTPRequest: Sendable {
    /// The server's record of the request doubles as its storage.
    private(set) var storage: RequestRecord

    /// The storage, made unique first so a change never shows through another copy.
    private var uniqueStorage: RequestRecord {
        mutating get {
            if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
            return storage
        }
    }

    public var method: HTTPMethod {
        get { storage.method }
        set { uniqueStorage.method = newValue }
    }
    /// The request-target exactly as sent, e.g. `/photos/3/tiles/2/1/0.jpg?v=9f2c41d0a7e3`.
    public var target: String {
        get { storage.target.text }
        set { uniqueStorage.target = RequestTarget(newValue) }
    }
    /// The percent-decoded path without the query, e.g. `/photos/3/tiles/2/1/0.jpg`.
    public var path: String {
        get { storage.path }
        set { uniqueStorage.path = newValue }
    }
    /// The raw query string after `?`, without the `?` (empty when absent).
    public var queryString: String {
        get { storage.queryString }
        set { uniqueStorage.queryString = newValue }
    }
    public var version: HTTPVersion {
        get { storage.version }
        set { uniqueStorage.version = newValue }
    }
    public var headers: HTTPHeaders {
        get { storage.headers }
        set {
            let storage = uniqueStorage
            storage.headers = newValue
            storage.noted = NotedFields(newValue)
        }
    }
    /// Which of the fields that shape an answer the headers hold, noted when they were read.
    var noted: NotedFields { storage.noted }
    /// Whether the request carries If-None-Match: known without looking for it among the fields.
    public var hasIfNoneMatch: Bool { storage.noted.contains(.ifNoneMatch) }
    /// Whether the request carries a Cookie or Authorization field: known without looking, so
    /// an access check of a request with no credentials costs one test.
    public var hasCredentials: Bool { !storage.noted.isDisjoint(with: [.cookie, .authorization]) }
    public var body: [UInt8] {
        get { storage.body }
        set { uniqueStorage.body = newValue }
    }
    /// Values captured by the route pattern (`:id` → `parameters["id"]`); set by the router.
    public var parameters: RouteParameters
    /// The route pattern that matched (e.g. `/photos/:id`), for logs and metrics; set by the router.
    public var routePattern: String
    /// The peer's address as text, e.g. `127.0.0.1` or `::1`.
    public var remoteAddress: String {
        get { storage.remoteAddress }
        set { uniqueStorage.remoteAddress = newValue }
    }

    public init(
        method: HTTPMethod,
        target: String,
        version: HTTPVersion = .http1_1,
        headers: HTTPHeaders = HTTPHeaders(),
        body: [UInt8] = [],
        remoteAddress: String = "127.0.0.1"
    ) {
        let parts = RequestTarget(target)
        storage = RequestRecord(method: method, target: parts, path: HTTPRequest.percentDecode(parts.path) ?? parts.path,
                                queryString: parts.query ?? "", version: version, headers: headers, noted: NotedFields(headers), body: body,
                                remoteAddress: remoteAddress)
        self.parameters = RouteParameters()
        self.routePattern = ""
    }

    /// The request a record holds, with the parameters its route captured: how the server
    /// builds one, once.
    init(record: RequestRecord, parameters: RouteParameters) {
        storage = record
        self.parameters = parameters
        self.routePattern = record.routePattern
    }

    /// Query items in order, `+` and percent-escapes decoded.
    public var queryItems: [(name: String, value: String)] {
        guard !queryString.isEmpty else { return [] }
        return queryString.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = HTTPRequest.formDecode(String(parts[0]))
            let value = parts.count > 1 ? HTTPRequest.formDecode(String(parts[1])) : ""
            return (name, value)
        }
    }

    /// The first value of query item `name`, or nil.
    public func query(_ name: String) -> String? {
        queryItems.first { $0.name == name }?.value
    }

    /// Whether the connection should close after this request (HTTP/1.0 without keep-alive, or `Connection: close`).
    public var wantsClose: Bool { Self.wantsClose(headers, noted: noted, version: version) }

    /// Whether a request with these headers and version wants the connection closed after it.
    static func wantsClose(_ headers: HTTPHeaders, version: HTTPVersion) -> Bool {
        wantsClose(headers, noted: NotedFields(headers), version: version)
    }

    /// `wantsClose(_:version:)` for headers whose fields are noted already.
    static func wantsClose(_ headers: HTTPHeaders, noted: NotedFields, version: HTTPVersion) -> Bool {
        // Most requests carry no Connection header: then only the version decides.
        guard noted.contains(.connection) else { return version == .http1_0 }
        var seen = false, close = false, keepAlive = false
        for index in headers.indices {
            let name = headers.name(at: index)
            guard name.utf8.count == 10 && name.caseInsensitiveEquals("Connection") else { continue }
            seen = true
            connectionTokens(headers.value(at: index), close: &close, keepAlive: &keepAlive)
        }
        guard seen else { return version == .http1_0 }
        if close { return true }
        if version == .http1_0 { return !keepAlive }
        return false
    }

    /// Notes whether the comma-separated `value` of a Connection header lists `close` or
    /// `keep-alive` (in any case, with any spaces or tabs around them). Browsers send
    /// `Connection: keep-alive` with every request: read over the bytes, without the splitting,
    /// trimming and lowercasing strings that once cost more than the rest of a request.
    static func connectionTokens(_ value: String, close: inout Bool, keepAlive: inout Bool) {
        var value = value
        value.withUTF8 { connectionTokens($0, close: &close, keepAlive: &keepAlive) }
    }

    /// `connectionTokens(_:close:keepAlive:)` over a value's bytes.
    static func connectionTokens(_ bytes: UnsafeBufferPointer<UInt8>, close: inout Bool, keepAlive: inout Bool) {
        var start = 0
        while start <= bytes.count {
            var end = start
            while end < bytes.count && bytes[end] != UInt8(ascii: ",") { end += 1 }
            var first = start, last = end
            while first < last && (bytes[first] == 32 || bytes[first] == 9) { first += 1 }
            while last > first && (bytes[last - 1] == 32 || bytes[last - 1] == 9) { last -= 1 }
            let token = UnsafeBufferPointer(rebasing: bytes[first..<last])
            if Self.equalsIgnoringCase(token, "close") { close = true }
            else if Self.equalsIgnoringCase(token, "keep-alive") { keepAlive = true }
            start = end + 1
        }
    }

    /// Whether `bytes` spell `word` (lowercase ASCII) in any case.
    private static func equalsIgnoringCase(_ bytes: UnsafeBufferPointer<UInt8>, _ word: StaticString) -> Bool {
        guard bytes.count == word.utf8CodeUnitCount else { return false }
        let expected = word.utf8Start
        for i in 0..<bytes.count {
            let byte = bytes[i]
            if (byte >= 65 && byte <= 90 ? byte | 0x20 : byte) != expected[i] { return false }
        }
        return true
    }

    /// Percent-decodes `s`; nil when an escape is malformed or the result is not UTF-8.
    public static func percentDecode(_ s: String) -> String? {
        let hasEscape = s.utf8.withContiguousStorageIfAvailable { $0.contains(UInt8(ascii: "%")) } ?? s.utf8.contains(UInt8(ascii: "%"))
        guard hasEscape else { return s }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(s.utf8.count)
        var it = s.utf8.makeIterator()
        while let c = it.next() {
            if c == UInt8(ascii: "%") {
                guard let h = it.next(), let l = it.next(), let hv = hexValue(h), let lv = hexValue(l) else { return nil }
                bytes.append(hv << 4 | lv)
            } else {
                bytes.append(c)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// Decodes `application/x-www-form-urlencoded` text: `+` is a space, then percent-escapes.
    public static func formDecode(_ s: String) -> String {
        let spaced = s.replacingOccurrences(of: "+", with: " ")
        return percentDecode(spaced) ?? spaced
    }

    static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
