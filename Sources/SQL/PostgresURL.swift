/// A PostgreSQL server and database, from a `postgres://user:password@host:port/database?…` URL.
///
/// The URL is taken apart here, not by libpq, so a mistake is reported naming the part that is
/// wrong, and the password never appears in messages or logs (`description` hides it). The host
/// may be a name, an IPv4 address, `[an:IPv6::address]`, or a socket folder written
/// percent-encoded (`%2Frun%2Fpostgresql`) or as `?host=/run/postgresql`. Query parameters are
/// libpq's connection keywords (`sslmode`, `connect_timeout`, `application_name`, …); unknown
/// ones are refused rather than ignored.
public struct PostgresURL: Sendable, Equatable, CustomStringConvertible {
    public var user: String
    public var password: String?
    /// Host name or address, or a socket folder (starts with `/`).
    public var host: String
    public var port: Int
    public var database: String
    /// libpq keywords from the query string, in the order given.
    public var parameters: [(String, String)]

    /// The keywords libpq takes that make sense in a URL (password and host have their own places).
    static let knownParameters: Set<String> = [
        "host", "hostaddr", "port", "sslmode", "sslrootcert", "sslcert", "sslkey", "sslcrl", "sslpassword",
        "sslsni", "channel_binding", "gssencmode", "requirepeer", "connect_timeout", "application_name",
        "options", "target_session_attrs", "keepalives", "keepalives_idle", "keepalives_interval",
        "keepalives_count", "tcp_user_timeout", "passfile", "krbsrvname",
    ]
    static let sslModes = ["disable", "allow", "prefer", "require", "verify-ca", "verify-full"]

    /// Parses and checks `text`; the error says what is wrong and how the URL should look.
    public init(parsing text: String) throws(PostgresURLError) {
        let example = "postgres://user:password@host:5432/photoscroll?sslmode=require"
        guard let schemeEnd = text.range(of: "://") else {
            throw PostgresURLError("it is not a URL; write it like \(example)")
        }
        let scheme = text[..<schemeEnd.lowerBound].lowercased()
        guard scheme == "postgres" || scheme == "postgresql" else {
            throw PostgresURLError("the scheme must be postgres:// (or postgresql://), not \(scheme)://")
        }
        var rest = Substring(text[schemeEnd.upperBound...])
        var query = Substring("")
        if let mark = rest.firstIndex(of: "?") {
            query = rest[rest.index(after: mark)...]
            rest = rest[..<mark]
        }
        guard rest.firstIndex(of: "#") == nil else { throw PostgresURLError("a URL fragment (#…) has no meaning here") }
        var path = Substring("")
        if let slash = rest.firstIndex(of: "/") {
            path = rest[rest.index(after: slash)...]
            rest = rest[..<slash]
        }
        var authority = rest
        user = ""
        password = nil
        if let at = authority.lastIndex(of: "@") {
            let credentials = authority[..<at]
            authority = authority[authority.index(after: at)...]
            if let colon = credentials.firstIndex(of: ":") {
                user = try Self.decode(credentials[..<colon], "the user name")
                password = try Self.decode(credentials[credentials.index(after: colon)...], "the password")
            } else {
                user = try Self.decode(credentials, "the user name")
            }
        }
        var hostText = authority
        var portText: Substring?
        if hostText.hasPrefix("[") {
            guard let close = hostText.firstIndex(of: "]") else { throw PostgresURLError("the IPv6 address after [ has no closing ]") }
            let after = hostText[hostText.index(after: close)...]
            if after.hasPrefix(":") { portText = after.dropFirst() } else if !after.isEmpty {
                throw PostgresURLError("unexpected \"\(after)\" after the IPv6 address")
            }
            hostText = hostText[hostText.index(after: hostText.startIndex)..<close]
        } else if let colon = hostText.lastIndex(of: ":") {
            portText = hostText[hostText.index(after: colon)...]
            hostText = hostText[..<colon]
        }
        guard !hostText.contains(",") else { throw PostgresURLError("give one host, not a list") }
        host = try Self.decode(hostText, "the host")
        port = 5432
        if let portText {
            guard let n = Int(portText), (1...65535).contains(n) else {
                throw PostgresURLError("the port must be a number from 1 to 65535, not \"\(portText)\"")
            }
            port = n
        }
        database = try Self.decode(path, "the database name")
        parameters = []
        for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let key = try Self.decode(parts[0], "a parameter name")
            let value = parts.count > 1 ? try Self.decode(parts[1], "the value of \(key)") : ""
            guard Self.knownParameters.contains(key) else {
                throw PostgresURLError("unknown parameter \"\(key)\"; known: \(Self.knownParameters.sorted().joined(separator: ", "))")
            }
            switch key {
            case "host": host = value
            case "port":
                guard let n = Int(value), (1...65535).contains(n) else {
                    throw PostgresURLError("port must be a number from 1 to 65535, not \"\(value)\"")
                }
                port = n
            case "sslmode":
                guard Self.sslModes.contains(value) else {
                    throw PostgresURLError("sslmode must be one of \(Self.sslModes.joined(separator: ", ")), not \"\(value)\"")
                }
                parameters.append((key, value))
            case "connect_timeout":
                guard let n = Int(value), n >= 0 else {
                    throw PostgresURLError("connect_timeout must be whole seconds, not \"\(value)\"")
                }
                parameters.append((key, value))
            default:
                parameters.append((key, value))
            }
        }
        guard !host.isEmpty else { throw PostgresURLError("it names no host; write it like \(example)") }
        guard !database.isEmpty else { throw PostgresURLError("it names no database: add one after the host, like …@\(host):\(port)/photoscroll") }
        guard !database.contains("/") else { throw PostgresURLError("the database name \"\(database)\" must not contain /") }
    }

    /// A URL from its parts (tests and tools build these).
    public init(user: String, password: String? = nil, host: String, port: Int = 5432, database: String,
                parameters: [(String, String)] = []) {
        self.user = user
        self.password = password
        self.host = host
        self.port = port
        self.database = database
        self.parameters = parameters
    }

    /// Where the server is, as messages should name it: `db.example.com:5432` or `socket /run/postgresql (port 5432)`.
    public var serverDescription: String {
        if host.hasPrefix("/") { return "socket \(host) (port \(port))" }
        return host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// The URL with the password replaced by `***`.
    public var description: String {
        var text = "postgres://"
        if !user.isEmpty { text += Self.encode(user) + (password == nil ? "" : ":***") + "@" }
        text += host.hasPrefix("/") ? Self.encode(host) : host.contains(":") ? "[\(host)]" : host
        text += ":\(port)/\(Self.encode(database))"
        if !parameters.isEmpty { text += "?" + parameters.map { "\($0.0)=\(Self.encode($0.1))" }.joined(separator: "&") }
        return text
    }

    /// A copy naming another database on the same server.
    public func with(database: String) -> PostgresURL {
        var copy = self
        copy.database = database
        return copy
    }

    /// The keyword/value pairs for `PQconnectdbParams`, with `defaults` for keywords the URL leaves out.
    func connectionKeywords(defaults: [(String, String)]) -> [(String, String)] {
        var pairs: [(String, String)] = [("host", host), ("port", String(port)), ("dbname", database)]
        if !user.isEmpty { pairs.append(("user", user)) }
        if let password { pairs.append(("password", password)) }
        pairs += parameters
        for (key, value) in defaults where !pairs.contains(where: { $0.0 == key }) { pairs.append((key, value)) }
        return pairs
    }

    public static func == (a: PostgresURL, b: PostgresURL) -> Bool {
        a.user == b.user && a.password == b.password && a.host == b.host && a.port == b.port && a.database == b.database
            && a.parameters.map(\.0) == b.parameters.map(\.0) && a.parameters.map(\.1) == b.parameters.map(\.1)
    }

    private static func decode(_ text: Substring, _ what: String) throws(PostgresURLError) -> String {
        guard let decoded = String(text).removingPercentEncodingStrictly() else {
            throw PostgresURLError("\(what) has a broken %-escape")
        }
        return decoded
    }

    private static func encode(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                out += "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            }
        }
        return out
    }
}

extension String {
    /// Percent-decoding that fails on a broken escape or bytes that are not UTF-8, without Foundation.
    func removingPercentEncodingStrictly() -> String? {
        var bytes: [UInt8] = []
        var iterator = utf8.makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "%") {
                guard let high = iterator.next(), let low = iterator.next(),
                      let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16) else { return nil }
                bytes.append(value)
            } else {
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }
}
