import Foundation

/// `--config FILE` and every configuration key as a flag (`tileCacheMegabytes` is
/// `--tile-cache-megabytes`), shared by the commands that read the settings.
public struct ConfigurationOptions: Sendable, Equatable {
    /// `--config FILE`, or nil for `PHOTOSCROLL_CONFIG` or `config.json` if present.
    public var file: String?
    /// Flag values keyed by configuration key name (`["port": "9000"]`).
    public var flags: [String: String] = [:]

    /// The option names, without dashes.
    static var names: [String] { ["config"] + Configuration.settings.map(\.flagName) }

    /// Takes the configuration flags out of `arguments`. With `checkingValues`, a number flag
    /// that is not one is a usage error here rather than a configuration error at load.
    init(_ arguments: ArgumentList, checkingValues: Bool = true) throws(UsageError) {
        file = arguments.options["config"]
        for setting in Configuration.settings {
            let flag = setting.flagName
            guard let text = arguments.options[flag] else { continue }
            if checkingValues { try Self.check(text, for: setting, flag: "--" + flag) }
            flags[setting.name] = text
        }
    }

    public init(file: String? = nil, flags: [String: String] = [:]) {
        self.file = file
        self.flags = flags
    }

    private static func check(_ text: String, for setting: SettingDescription, flag: String) throws(UsageError) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        switch setting.kind {
        case .string:
            return
        case .int where setting.name == "port":
            guard let port = Int(trimmed), (0...65535).contains(port) else {
                throw .invalidValue(flag, given: text, wanted: "a number from 0 to 65535")
            }
        case .int:
            guard Int(trimmed) != nil else { throw .invalidValue(flag, given: text, wanted: "a whole number") }
        case .double:
            guard let value = Double(trimmed), value.isFinite else { throw .invalidValue(flag, given: text, wanted: "a number") }
        case .bool:
            guard Configuration.switchValue(trimmed) != nil else {
                throw .invalidValue(flag, given: text, wanted: "true or false")
            }
        }
    }

    /// The settings: the file (this one, `PHOTOSCROLL_CONFIG`'s, or `config.json` if present),
    /// then the environment, then these flags.
    func load(environment: [String: String]) throws -> Configuration {
        let explicit = file ?? environment["PHOTOSCROLL_CONFIG"]
        return try Configuration.load(file: explicit ?? "config.json", fileIsExplicit: explicit != nil,
                                      environment: environment, flags: flags)
    }
}
