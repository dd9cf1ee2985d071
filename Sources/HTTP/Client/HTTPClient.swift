/// A small blocking HTTP/1.1 client for health checks, tools and tests; one request per connection.
public enum HTTPClient {
    /// GETs `url` (`http://host:port/path`) and returns status, headers and body.
    public static func get(url: String, timeoutSeconds: Double = 5) throws -> (status: Int, headers: HTTPHeaders, body: [UInt8]) {
        let response = try request(.GET, url: url, timeoutSeconds: timeoutSeconds)
        return (response.status, response.headers, response.body)
    }

    /// Sends one request with `Connection: close` and reads the answer.
    public static func request(_ method: HTTPMethod, url: String, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = [],
                               timeoutSeconds: Double = 5) throws -> HTTPClientResponse {
        let (host, port, target) = try split(url)
        let connection = try HTTPClientConnection(host: host, port: port, timeoutSeconds: timeoutSeconds)
        defer { connection.close() }
        // The URL's authority, unless the caller names the host itself (a name resolved elsewhere).
        var head = "\(method) \(target) HTTP/1.1\r\n"
        if headers["Host"] == nil { head += "Host: \(host.contains(":") ? "[\(host)]" : host):\(port)\r\n" }
        head += "Connection: close\r\n"
        for field in headers { head += "\(field.name): \(field.value)\r\n" }
        if !body.isEmpty || method == .POST || method == .PUT { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        try connection.send(Array(head.utf8) + body)
        return try connection.readResponse(head: method == .HEAD)
    }

    /// `http://host:port/path?q` → ("host", port, "/path?q"); port 80 when absent.
    static func split(_ url: String) throws -> (host: String, port: Int, target: String) {
        guard url.hasPrefix("http://") else { throw HTTPClientError("only http:// URLs are supported, not \(url)") }
        let rest = url.dropFirst(7)
        let slash = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? rest.endIndex
        let authority = rest[..<slash]
        var target = String(rest[slash...])
        if target.isEmpty { target = "/" } else if target.hasPrefix("?") { target = "/" + target }
        var host = String(authority), port = 80
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            host = String(authority[authority.index(after: authority.startIndex)..<close])
            let after = authority[authority.index(after: close)...]
            if after.hasPrefix(":") { port = Int(after.dropFirst()) ?? -1 }
        } else if let colon = authority.lastIndex(of: ":") {
            host = String(authority[..<colon])
            port = Int(authority[authority.index(after: colon)...]) ?? -1
        }
        guard !host.isEmpty, port > 0, port < 65536 else { throw HTTPClientError("bad URL \(url)") }
        return (host, port, target)
    }
}
