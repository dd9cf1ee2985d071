import Foundation
import Observability
import SQL

/// Every setting of the server, with its default. `config.json` at the root lists the same keys.
///
/// Sources, later winning: the defaults here, the config file, `PHOTOSCROLL_*` environment
/// variables (and plain `PORT`), command-line flags. Only the executable reads argv and the
/// environment; it hands them to `Configuration.load`.
public struct Configuration: Sendable, Equatable {
    /// Address to listen on. `0.0.0.0` for every interface (the container sets that).
    public var host = "127.0.0.1"
    /// TCP port; 0 picks a free one and the first line printed says which.
    public var port = 8080
    /// Folder of photos. Empty: a demo library is made under the data folder.
    public var photos = ""
    /// Folder for the catalog, comments and tile cache.
    public var data = "data"
    /// Where the catalog and comments live: empty for SQLite files in the data folder, or a
    /// `postgres://user:password@host:port/database?sslmode=…` URL for a PostgreSQL server.
    public var database = ""
    /// Folder of the web page's static files.
    public var `public` = "Public"
    /// Tile edge in pixels.
    public var tileSize = 256
    /// JPEG quality of tiles and thumbnails, 1–100.
    public var jpegQuality = 85
    /// Edge of the square grid thumbnail in pixels.
    public var thumbnailSize = 256
    /// Colour that transparent pixels are flattened onto, as `#rrggbb`.
    public var background = "#ffffff"
    /// Byte cap of the in-memory hot tile cache, in MiB.
    public var tileCacheMegabytes = 256
    /// Largest photo accepted, in pixels (width × height); larger ones are refused from the header.
    public var maxImagePixels = 500_000_000
    /// Photos whose pyramids are built at the same time; 0 means one per core. Tiles rendered on
    /// demand for what people are looking at still come first.
    public var ingestConcurrency = 0
    /// Seconds between full scans of the photos folder. Changes are seen as they happen where
    /// the folder can be watched (inotify on Linux), so this is a safety net there and the only
    /// way changes are found elsewhere (a network file system changed from another machine). 0: never.
    public var rescanSeconds = 3600
    /// Seconds the pyramid of a removed photo is kept (it is ready again if the file comes back),
    /// and that photos of a subfolder that cannot be reached stay listed.
    public var missingGraceSeconds = 86_400
    /// libvips' operation cache, in MiB.
    public var vipsCacheMegabytes = 64
    /// libvips worker threads per operation; 0 lets libvips choose.
    public var vipsConcurrency = 0
    /// Comments one client may post per minute; 0 turns the limit off.
    public var commentsPerMinute = 10
    /// Bearer token that allows deleting comments; empty disables deletion.
    public var adminToken = ""
    /// Addresses of reverse proxies in front of the server, comma-separated; only their
    /// `X-Forwarded-For` is believed when telling clients apart. Empty: the connection's address.
    public var trustedProxies = ""
    /// `text` for people, `json` for log collectors.
    public var logFormat = "text"
    /// `debug`, `info`, `warning` or `error`.
    public var logLevel = "info"
    /// Event loops; 0 means one per core.
    public var eventLoops = 0
    /// Worker threads for slow handlers; 0 means twice the cores, at least 4.
    public var workerThreads = 0
    /// Most open connections at once.
    public var maxConnections = 10_000
    /// Seconds a client has to send a whole request head.
    public var headerTimeoutSeconds = 10.0
    /// Seconds an idle keep-alive connection stays open.
    public var idleTimeoutSeconds = 60.0
    /// Seconds a response write may stall before the connection is dropped.
    public var writeTimeoutSeconds = 30.0
    /// Seconds in-flight requests get to finish after SIGTERM or SIGINT.
    public var shutdownGraceSeconds = 10.0
    /// The server's public address, e.g. `https://photos.example.org`, for the absolute URLs of
    /// IIIF documents. Empty: `http://` and the request's Host.
    public var publicURL = ""
    /// Most pixels (width × height) of one IIIF image answer (`maxArea`).
    public var iiifMaxArea = 50_000_000
    /// Widest IIIF image answer in pixels (`maxWidth`); 0 for no limit but the area.
    public var iiifMaxWidth = 0
    /// Highest IIIF image answer in pixels (`maxHeight`); 0 for the same as `iiifMaxWidth`.
    public var iiifMaxHeight = 0
    /// Most open connections from one client address; when it has that many, its oldest idle
    /// connection is closed for a new one. 0 turns the cap off (behind a proxy that does not
    /// pass `trustedProxies`, every client shares the proxy's address).
    public var maxConnectionsPerClient = 256
    /// Worker threads for catalog queries (photo listings); 0 means 2.
    public var catalogWorkers = 0
    /// Worker threads for comment reads and writes; 0 means 2.
    public var commentWorkers = 0
    /// Worker threads for images read from disk or rendered on demand; 0 means one per core, at least 2.
    public var imageWorkers = 0
    /// Most on-demand renders of one photo (before its pyramid is built) running at once; more wait their turn.
    public var rendersPerPhoto = 2
    /// Most on-demand renders for one client running at once; more wait their turn.
    public var rendersPerClient = 4
    /// Whether GET /photos/:id/original sends the files as they are on disk (and the page offers
    /// a download button). false: 404, and the button is hidden.
    public var downloadOriginals = true
    /// Whether a photo's GPS position is served in its details. false (the default): nothing
    /// about where a photo was taken leaves the server.
    public var showLocation = false
    /// Largest photo that may be uploaded, in MiB (tus `Tus-Max-Size`, and each file of a form).
    public var maxUploadMegabytes = 4096
    /// Seconds an unfinished upload is kept after its last byte arrived; then its bytes are deleted.
    public var uploadExpirySeconds = 86_400
    /// Unfinished uploads one client may have at once; more are refused with 429.
    public var uploadsPerClient = 100
    /// Worker threads that write uploads to disk; 0 means 4.
    public var uploadWorkers = 0

    public init() {}
}

/// A setting that could not be used, named so the person can fix it.
public struct ConfigurationError: Error, CustomStringConvertible, Equatable {
    public var description: String
    public init(_ description: String) { self.description = description }
}

extension Configuration {
    /// One key: its name, how to read it, and where it lives in the struct.
    struct Key: Sendable {
        enum Kind: Sendable { case string, int, double, bool }
        let name: String
        let kind: Kind
        let set: @Sendable (inout Configuration, Any) -> Void
        let get: @Sendable (Configuration) -> Any

        static func string(_ name: String, _ path: WritableKeyPath<Configuration, String> & Sendable) -> Key {
            Key(name: name, kind: .string, set: { $0[keyPath: path] = $1 as! String }, get: { $0[keyPath: path] })
        }
        static func int(_ name: String, _ path: WritableKeyPath<Configuration, Int> & Sendable) -> Key {
            Key(name: name, kind: .int, set: { $0[keyPath: path] = $1 as! Int }, get: { $0[keyPath: path] })
        }
        static func double(_ name: String, _ path: WritableKeyPath<Configuration, Double> & Sendable) -> Key {
            Key(name: name, kind: .double, set: { $0[keyPath: path] = $1 as! Double }, get: { $0[keyPath: path] })
        }
        static func bool(_ name: String, _ path: WritableKeyPath<Configuration, Bool> & Sendable) -> Key {
            Key(name: name, kind: .bool, set: { $0[keyPath: path] = $1 as! Bool }, get: { $0[keyPath: path] })
        }

        /// `tileCacheMegabytes` → `PHOTOSCROLL_TILE_CACHE_MEGABYTES`; a run of capitals is one
        /// word (`publicURL` → `PHOTOSCROLL_PUBLIC_URL`).
        var environmentName: String {
            var out = "PHOTOSCROLL_"
            var previous: Character = "_"
            for c in name {
                if c.isUppercase && !previous.isUppercase { out += "_" }
                out += c.uppercased()
                previous = c
            }
            return out
        }
    }

    /// Every key, in the order `config.json` lists them.
    static let keys: [Key] = [
        .string("host", \.host), .int("port", \.port),
        .string("photos", \.photos), .string("data", \.data), .string("database", \.database), .string("public", \.public),
        .int("tileSize", \.tileSize), .int("jpegQuality", \.jpegQuality), .int("thumbnailSize", \.thumbnailSize),
        .string("background", \.background), .int("tileCacheMegabytes", \.tileCacheMegabytes),
        .int("maxImagePixels", \.maxImagePixels), .int("ingestConcurrency", \.ingestConcurrency),
        .int("rescanSeconds", \.rescanSeconds), .int("missingGraceSeconds", \.missingGraceSeconds),
        .int("vipsCacheMegabytes", \.vipsCacheMegabytes),
        .int("vipsConcurrency", \.vipsConcurrency),
        .int("commentsPerMinute", \.commentsPerMinute), .string("adminToken", \.adminToken),
        .string("trustedProxies", \.trustedProxies),
        .string("logFormat", \.logFormat), .string("logLevel", \.logLevel),
        .int("eventLoops", \.eventLoops), .int("workerThreads", \.workerThreads),
        .int("maxConnections", \.maxConnections),
        .double("headerTimeoutSeconds", \.headerTimeoutSeconds), .double("idleTimeoutSeconds", \.idleTimeoutSeconds),
        .double("writeTimeoutSeconds", \.writeTimeoutSeconds), .double("shutdownGraceSeconds", \.shutdownGraceSeconds),
        .string("publicURL", \.publicURL), .int("iiifMaxArea", \.iiifMaxArea),
        .int("iiifMaxWidth", \.iiifMaxWidth), .int("iiifMaxHeight", \.iiifMaxHeight),
        .int("maxConnectionsPerClient", \.maxConnectionsPerClient),
        .int("catalogWorkers", \.catalogWorkers), .int("commentWorkers", \.commentWorkers), .int("imageWorkers", \.imageWorkers),
        .int("rendersPerPhoto", \.rendersPerPhoto), .int("rendersPerClient", \.rendersPerClient),
        .bool("downloadOriginals", \.downloadOriginals), .bool("showLocation", \.showLocation),
        .int("maxUploadMegabytes", \.maxUploadMegabytes), .int("uploadExpirySeconds", \.uploadExpirySeconds),
        .int("uploadsPerClient", \.uploadsPerClient), .int("uploadWorkers", \.uploadWorkers),
    ]

    /// The key names, for messages and for checking `config.json`.
    public static var keyNames: [String] { keys.map(\.name) }

    /// Builds the configuration from a config file (nil: none), the environment and flags
    /// (`--port 9000` style, already split: `["port": "9000"]`, keyed by config key name).
    public static func load(
        file: String?,
        fileIsExplicit: Bool = false,
        environment: [String: String],
        flags: [String: String] = [:]
    ) throws -> Configuration {
        var configuration = Configuration()
        if let file {
            if FileManager.default.fileExists(atPath: file) {
                try configuration.apply(jsonFile: file)
            } else if fileIsExplicit {
                throw ConfigurationError("The config file \(file) does not exist.")
            }
        }
        try configuration.apply(environment: environment)
        try configuration.apply(strings: flags, source: { "--\(flagName($0))" })
        try configuration.validate()
        return configuration
    }

    /// Reads a JSON object of settings; unknown keys and wrong types are errors naming the key.
    mutating func apply(jsonFile path: String) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConfigurationError("Cannot read the config file \(path).")
        }
        try apply(json: data, source: path)
    }

    mutating func apply(json data: Data, source: String) throws {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw ConfigurationError("\(source) is not valid JSON: \(error.localizedDescription)")
        }
        guard let dictionary = object as? [String: Any] else {
            throw ConfigurationError("\(source) must hold one JSON object of settings.")
        }
        for (name, value) in dictionary.sorted(by: { $0.key < $1.key }) {
            guard let key = Self.keys.first(where: { $0.name == name }) else {
                throw ConfigurationError("Unknown key \"\(name)\" in \(source). Known keys: \(Self.keyNames.joined(separator: ", ")).")
            }
            switch key.kind {
            case .string:
                guard let s = value as? String else { throw typeError(key, source, "a string") }
                key.set(&self, s)
            case .int:
                guard let n = value as? NSNumber, !Self.isBool(n), let i = Int(exactly: n.doubleValue) else {
                    throw typeError(key, source, "a whole number")
                }
                key.set(&self, i)
            case .double:
                guard let n = value as? NSNumber, !Self.isBool(n) else { throw typeError(key, source, "a number") }
                key.set(&self, n.doubleValue)
            case .bool:
                guard let n = value as? NSNumber, Self.isBool(n) else { throw typeError(key, source, "true or false") }
                key.set(&self, n.boolValue)
            }
        }
    }

    private func typeError(_ key: Key, _ source: String, _ expected: String) -> ConfigurationError {
        ConfigurationError("\"\(key.name)\" in \(source) must be \(expected).")
    }

    private static func isBool(_ n: NSNumber) -> Bool {
        String(cString: n.objCType) == "c"
    }

    mutating func apply(environment: [String: String]) throws {
        var values: [String: String] = [:]
        if let port = environment["PORT"] { values["port"] = port }
        for key in Self.keys {
            if let value = environment[key.environmentName] { values[key.name] = value }
        }
        try apply(strings: values) { name in
            let key = Self.keys.first { $0.name == name }!
            return name == "port" && environment[key.environmentName] == nil ? "PORT" : key.environmentName
        }
    }

    mutating func apply(strings: [String: String], source: (String) -> String) throws {
        for (name, text) in strings.sorted(by: { $0.key < $1.key }) {
            guard let key = Self.keys.first(where: { $0.name == name }) else {
                throw ConfigurationError("Unknown setting \(source(name)).")
            }
            switch key.kind {
            case .string:
                key.set(&self, text)
            case .int:
                guard let i = Int(text.trimmingCharacters(in: .whitespaces)) else {
                    throw ConfigurationError("\(source(name)) must be a whole number, not \"\(text)\".")
                }
                key.set(&self, i)
            case .double:
                guard let d = Double(text.trimmingCharacters(in: .whitespaces)), d.isFinite else {
                    throw ConfigurationError("\(source(name)) must be a number, not \"\(text)\".")
                }
                key.set(&self, d)
            case .bool:
                switch text.trimmingCharacters(in: .whitespaces).lowercased() {
                case "true", "1", "yes", "on": key.set(&self, true)
                case "false", "0", "no", "off": key.set(&self, false)
                default: throw ConfigurationError("\(source(name)) must be true or false, not \"\(text)\".")
                }
            }
        }
    }

    /// The connections a browser opens to one server (Chromium, Firefox and Safari alike).
    static let browserConnections = 6

    /// Settings that are valid but will hurt, each naming the key: logged as warnings at start.
    var cautions: [String] {
        var cautions: [String] = []
        if maxConnectionsPerClient > 0 && maxConnectionsPerClient < Self.browserConnections {
            cautions.append("maxConnectionsPerClient is \(maxConnectionsPerClient), below the \(Self.browserConnections) connections "
                + "a browser opens: the page's files will often be refused with 503 and it will keep reloading.")
        }
        return cautions
    }

    /// Range checks, each naming the key.
    func validate() throws {
        func check(_ ok: Bool, _ message: String) throws { if !ok { throw ConfigurationError(message) } }
        try check((0...65535).contains(port), "port must be between 0 and 65535, not \(port).")
        try check(!host.isEmpty, "host must not be empty.")
        try check(!data.isEmpty, "data must name a folder.")
        if !database.isEmpty {
            do {
                _ = try PostgresURL(parsing: database)
            } catch {
                throw ConfigurationError("database must be empty (SQLite in the data folder) or a PostgreSQL URL like postgres://user:password@host:5432/photoscroll, but \(error).")
            }
        }
        try check((16...4096).contains(tileSize) && tileSize.nonzeroBitCount == 1,
                  "tileSize must be a power of two between 16 and 4096, not \(tileSize).")
        try check((1...100).contains(jpegQuality), "jpegQuality must be between 1 and 100, not \(jpegQuality).")
        try check((16...2048).contains(thumbnailSize), "thumbnailSize must be between 16 and 2048, not \(thumbnailSize).")
        try check(Self.parseColor(background) != nil, "background must be a colour like #ffffff, not \"\(background)\".")
        try check(tileCacheMegabytes >= 0, "tileCacheMegabytes must not be negative.")
        try check(maxImagePixels > 0, "maxImagePixels must be positive.")
        try check((0...64).contains(ingestConcurrency), "ingestConcurrency must be between 0 (one per core) and 64.")
        try check(rescanSeconds >= 0, "rescanSeconds must not be negative.")
        try check(missingGraceSeconds >= 0, "missingGraceSeconds must not be negative.")
        try check(vipsCacheMegabytes >= 0, "vipsCacheMegabytes must not be negative.")
        try check(vipsConcurrency >= 0, "vipsConcurrency must not be negative.")
        try check(commentsPerMinute >= 0, "commentsPerMinute must not be negative (0 turns the limit off).")
        try check(["text", "json"].contains(logFormat), "logFormat must be \"text\" or \"json\", not \"\(logFormat)\".")
        try check(["debug", "info", "warning", "error"].contains(logLevel),
                  "logLevel must be debug, info, warning or error, not \"\(logLevel)\".")
        try check(eventLoops >= 0 && eventLoops <= 256, "eventLoops must be between 0 (one per core) and 256.")
        try check(workerThreads >= 0 && workerThreads <= 1024, "workerThreads must be between 0 (automatic) and 1024.")
        try check(maxConnections > 0, "maxConnections must be positive.")
        try check(maxConnectionsPerClient >= 0, "maxConnectionsPerClient must not be negative (0 turns the cap off).")
        for (name, value) in [("catalogWorkers", catalogWorkers), ("commentWorkers", commentWorkers), ("imageWorkers", imageWorkers)] {
            try check((0...1024).contains(value), "\(name) must be between 0 (automatic) and 1024.")
        }
        try check(rendersPerPhoto >= 1, "rendersPerPhoto must be at least 1.")
        try check(rendersPerClient >= 1, "rendersPerClient must be at least 1.")
        for (name, value) in [("headerTimeoutSeconds", headerTimeoutSeconds), ("idleTimeoutSeconds", idleTimeoutSeconds),
                              ("writeTimeoutSeconds", writeTimeoutSeconds), ("shutdownGraceSeconds", shutdownGraceSeconds)] {
            try check(value > 0, "\(name) must be positive.")
        }
        try check(publicURL.isEmpty || Self.isPublicURL(publicURL),
                  "publicURL must be an http:// or https:// address without a path's trailing slash, query or fragment, like https://photos.example.org, not \"\(publicURL)\".")
        try check((1...1_048_576).contains(maxUploadMegabytes), "maxUploadMegabytes must be between 1 and 1048576 (1 TiB).")
        try check(uploadExpirySeconds >= 60, "uploadExpirySeconds must be at least 60.")
        try check(uploadsPerClient >= 1, "uploadsPerClient must be at least 1.")
        try check((0...256).contains(uploadWorkers), "uploadWorkers must be between 0 (automatic) and 256.")
        try check(iiifMaxArea > 0, "iiifMaxArea must be positive.")
        try check(iiifMaxWidth >= 0 && iiifMaxHeight >= 0, "iiifMaxWidth and iiifMaxHeight must not be negative (0: no limit).")
        try check(iiifMaxHeight == 0 || iiifMaxWidth > 0, "iiifMaxHeight needs iiifMaxWidth too, as IIIF requires.")
    }

    /// Whether `text` is an absolute http(s) URL that paths can be appended to.
    static func isPublicURL(_ text: String) -> Bool {
        guard text.hasPrefix("http://") || text.hasPrefix("https://"), !text.hasSuffix("/") else { return false }
        guard let url = URL(string: text), let host = url.host, !host.isEmpty else { return false }
        return url.query == nil && url.fragment == nil && !text.contains(" ")
    }

    /// The PostgreSQL server of the `database` setting, or nil for SQLite in the data folder.
    public var postgresURL: PostgresURL? {
        database.isEmpty ? nil : try? PostgresURL(parsing: database)
    }

    /// `#rrggbb` → (r, g, b), or nil.
    public static func parseColor(_ text: String) -> (red: UInt8, green: UInt8, blue: UInt8)? {
        guard text.count == 7, text.first == "#", let value = UInt32(text.dropFirst(), radix: 16) else { return nil }
        return (UInt8(value >> 16 & 0xff), UInt8(value >> 8 & 0xff), UInt8(value & 0xff))
    }

    /// `tileCacheMegabytes` → `tile-cache-megabytes`, the flag spelling (`publicURL` → `public-url`).
    public static func flagName(_ key: String) -> String {
        var out = ""
        var previous: Character = "-"
        for c in key {
            if c.isUppercase && !previous.isUppercase { out += "-" }
            out += c.lowercased()
            previous = c
        }
        return out
    }

    /// The settings as a JSON object in key order, as `config.json` holds them.
    public func json() -> String {
        let lines = Self.keys.map { key -> String in
            let value = key.get(self)
            let text: String
            switch key.kind {
            case .string: text = jsonString(value as! String)
            case .int: text = String(value as! Int)
            case .double:
                let d = value as! Double
                text = d == d.rounded() ? String(format: "%.1f", d) : String(d)
            case .bool: text = (value as! Bool) ? "true" : "false"
            }
            return "  \"\(key.name)\": \(text)"
        }
        return "{\n" + lines.joined(separator: ",\n") + "\n}\n"
    }
}
