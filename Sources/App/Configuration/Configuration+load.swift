import Foundation
import SQL

extension Configuration {
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
        var values: [String: any SettingValue] = [:]
        for (name, value) in dictionary.sorted(by: { $0.key < $1.key }) {
            guard let setting = Self.setting(name) else {
                throw ConfigurationError("Unknown key \"\(name)\" in \(source). Known keys: \(Self.keyNames.joined(separator: ", ")).")
            }
            func typeError(_ expected: String) -> ConfigurationError {
                ConfigurationError("\"\(name)\" in \(source) must be \(expected).")
            }
            switch setting.kind {
            case .string:
                guard let s = value as? String else { throw typeError("a string") }
                values[name] = s
            case .int:
                guard let n = value as? NSNumber, !Self.isBool(n), let i = Int(exactly: n.doubleValue) else { throw typeError("a whole number") }
                values[name] = i
            case .double:
                guard let n = value as? NSNumber, !Self.isBool(n) else { throw typeError("a number") }
                values[name] = n.doubleValue
            case .bool:
                guard let n = value as? NSNumber, Self.isBool(n) else { throw typeError("true or false") }
                values[name] = n.boolValue
            }
        }
        self = try applying(values)
    }

    private static func isBool(_ n: NSNumber) -> Bool {
        String(cString: n.objCType) == "c"
    }

    mutating func apply(environment: [String: String]) throws {
        var values: [String: String] = [:]
        if let port = environment["PORT"] { values["port"] = port }
        for setting in Self.settings {
            if let value = environment[setting.environmentName] { values[setting.name] = value }
        }
        try apply(strings: values) { name in
            let setting = Self.setting(name)!
            return name == "port" && environment[setting.environmentName] == nil ? "PORT" : setting.environmentName
        }
    }

    mutating func apply(strings: [String: String], source: (String) -> String) throws {
        var values: [String: any SettingValue] = [:]
        for (name, text) in strings.sorted(by: { $0.key < $1.key }) {
            guard let setting = Self.setting(name) else {
                throw ConfigurationError("Unknown setting \(source(name)).")
            }
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            switch setting.kind {
            case .string:
                values[name] = text
            case .int:
                guard let i = Int(trimmed) else { throw ConfigurationError("\(source(name)) must be a whole number, not \"\(text)\".") }
                values[name] = i
            case .double:
                guard let d = Double(trimmed), d.isFinite else { throw ConfigurationError("\(source(name)) must be a number, not \"\(text)\".") }
                values[name] = d
            case .bool:
                guard let b = Self.switchValue(trimmed) else { throw ConfigurationError("\(source(name)) must be true or false, not \"\(text)\".") }
                values[name] = b
            }
        }
        self = try applying(values)
    }

    /// A switch as text: `true`, `1`, `yes`, `on` or `false`, `0`, `no`, `off`, in any case.
    static func switchValue(_ text: String) -> Bool? {
        switch text.lowercased() {
        case "true", "1", "yes", "on": true
        case "false", "0", "no", "off": false
        default: nil
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

    /// The checks each declaration states (`in:`, `oneOf:`), then the ones that need more than a
    /// range or a list; each message names the key.
    func validate() throws {
        for (setting, current) in zip(Self.settings, values) {
            if let refusal = setting.refusal(current.value) { throw ConfigurationError(refusal) }
        }
        func check(_ ok: Bool, _ message: String) throws { if !ok { throw ConfigurationError(message) } }
        try check(!host.isEmpty, "host must not be empty.")
        try check(!data.isEmpty, "data must name a folder.")
        for root in extraRootList {
            try check(root.hasPrefix("/"), "extraRoots must list absolute folders separated by commas, and \"\(root)\" is not absolute.")
        }
        if !database.isEmpty {
            do {
                _ = try PostgresURL(parsing: database)
            } catch {
                throw ConfigurationError("database must be empty (SQLite in the data folder) or a PostgreSQL URL like postgres://user:password@host:5432/photoscroll, but \(error).")
            }
        }
        try check((16...4096).contains(tileSize) && tileSize.nonzeroBitCount == 1,
                  "tileSize must be a power of two between 16 and 4096, not \(tileSize).")
        try check(Self.parseColor(background) != nil, "background must be a colour like #ffffff, not \"\(background)\".")
        try check(tileCacheMegabytes >= 0, "tileCacheMegabytes must not be negative.")
        try check(maxImagePixels >= 0, "maxImagePixels must be 0 (no cap) or positive.")
        try check((0...64).contains(ingestConcurrency), "ingestConcurrency must be between 0 (one per core) and 64.")
        try check(rescanSeconds >= 0, "rescanSeconds must not be negative.")
        try check(missingGraceSeconds >= 0, "missingGraceSeconds must not be negative.")
        try check(vipsCacheMegabytes >= 0, "vipsCacheMegabytes must not be negative.")
        try check(vipsConcurrency >= 0, "vipsConcurrency must not be negative.")
        try check(regionTileMegabytes >= 0, "regionTileMegabytes must not be negative.")
        try check(commentsPerMinute >= 0, "commentsPerMinute must not be negative (0 turns the limit off).")
        try check(eventLoops >= 0 && eventLoops <= 256, "eventLoops must be between 0 (one per core) and 256.")
        try check(workerThreads >= 0 && workerThreads <= 1024, "workerThreads must be between 0 (automatic) and 1024.")
        try check(maxConnections > 0, "maxConnections must be positive.")
        try check(maxConnectionsPerClient >= 0, "maxConnectionsPerClient must not be negative (0 turns the cap off).")
        for (name, value) in [("catalogWorkers", catalogWorkers), ("commentWorkers", commentWorkers), ("imageWorkers", imageWorkers)] {
            try check((0...1024).contains(value), "\(name) must be between 0 (automatic) and 1024.")
        }
        try check(rendersPerPhoto >= 1, "rendersPerPhoto must be at least 1.")
        try check(rendersPerClient >= 1, "rendersPerClient must be at least 1.")
        try check(iiifRenderPixels > 0, "iiifRenderPixels must be positive.")
        try check(iiifRenderSeconds > 0, "iiifRenderSeconds must be positive.")
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
        try check(trustedAuthHeader.isEmpty || (trustedAuthHeader.utf8.count <= 64 && trustedAuthHeader.utf8.allSatisfy {
            ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || $0 == UInt8(ascii: "-")
        }), "trustedAuthHeader must be a header name like Remote-User, not \"\(trustedAuthHeader)\".")
        try check(trustedAuthHeader.isEmpty || !trustedProxies.isEmpty,
                  "trustedAuthHeader needs trustedProxies: the header is believed only from the proxies named there.")
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
    public static func flagName(_ key: String) -> String { SettingDescription.words(key, separator: "-").lowercased() }
}

extension Configuration {
    /// `extraRoots` as folders, blanks around commas dropped.
    public var extraRootList: [String] {
        extraRoots.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}
