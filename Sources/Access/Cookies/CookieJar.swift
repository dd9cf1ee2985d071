import HTTP

/// Reading this server's cookies out of a request's `Cookie` field, over its bytes: the
/// session cookie is read on every request of a signed-in person, tiles included.
package enum CookieJar {
    /// Calls `body` with the value of each cookie in `field` (`a=1; b=2`) whose name `matches`,
    /// until it returns non-nil.
    @inline(__always)
    static func find<Result>(in field: UnsafeBufferPointer<UInt8>, matches: (UnsafeBufferPointer<UInt8>) -> Bool,
                             _ body: (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>) -> Result?) -> Result? {
        var start = 0
        let count = field.count
        while start < count {
            while start < count && (field[start] == UInt8(ascii: " ") || field[start] == UInt8(ascii: "\t")) { start += 1 }
            var end = start
            while end < count && field[end] != UInt8(ascii: ";") { end += 1 }
            var equals = start
            while equals < end && field[equals] != UInt8(ascii: "=") { equals += 1 }
            if equals < end {
                let name = UnsafeBufferPointer(rebasing: field[start..<equals])
                if matches(name) {
                    var valueEnd = end
                    while valueEnd > equals + 1 && (field[valueEnd - 1] == UInt8(ascii: " ") || field[valueEnd - 1] == UInt8(ascii: "\t")) {
                        valueEnd -= 1
                    }
                    var valueStart = equals + 1
                    // RFC 6265 allows a value in double quotes.
                    if valueEnd - valueStart >= 2 && field[valueStart] == UInt8(ascii: "\"") && field[valueEnd - 1] == UInt8(ascii: "\"") {
                        valueStart += 1
                        valueEnd -= 1
                    }
                    if let found = body(name, UnsafeBufferPointer(rebasing: field[valueStart..<valueEnd])) { return found }
                }
            }
            start = end + 1
        }
        return nil
    }

    /// The key of the first well-formed token in a cookie named exactly `name`, from every Cookie field.
    @inline(__always)
    static func token(named name: [UInt8], in request: HTTPRequest) -> TokenKey? {
        guard request.hasCredentials else { return nil }
        return request.headers.firstValue("Cookie") { field in
            name.withUnsafeBufferPointer { name in
                find(in: field, matches: { same($0, name) }) { _, value in TokenKey(value) }
            }
        }
    }

    /// The tokens of cookies named `prefix` + a decimal id (the share links opened with their
    /// password), with that id.
    static func tokens(prefixed prefix: [UInt8], id: Int, in request: HTTPRequest) -> TokenKey? {
        guard request.hasCredentials else { return nil }
        return request.headers.firstValue("Cookie") { field in
            prefix.withUnsafeBufferPointer { prefix in
                find(in: field, matches: { name in
                    guard name.count > prefix.count, same(UnsafeBufferPointer(rebasing: name[0..<prefix.count]), prefix) else { return false }
                    return RouteParameters.decimal(UnsafeBufferPointer(rebasing: name[prefix.count...])) == id
                }) { _, value in TokenKey(value) }
            }
        }
    }

    /// The value of the cookie `name` as text (for handlers, off the hot path).
    package static func value(named name: String, in request: HTTPRequest) -> String? {
        let bytes = Array(name.utf8)
        return request.headers.firstValue("Cookie") { field in
            bytes.withUnsafeBufferPointer { name in
                find(in: field, matches: { same($0, name) }) { _, value in String(decoding: value, as: UTF8.self) }
            }
        }
    }

    @inline(__always)
    static func same(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        for i in 0..<a.count where a[i] != b[i] { return false }
        return true
    }
}
