/// One command's arguments split into options (`--name value` or `--name=value`) and positional
/// arguments, checked against the options the command takes.
public struct ArgumentList: Sendable, Equatable {
    /// Option values by name without the dashes; a repeated option keeps its last value.
    public var options: [String: String] = [:]
    /// Options that take no value (`--owner`) and were given.
    public var flags: Set<String> = []
    public var positional: [String] = []
    /// `-h`, `--help` or `help` was among the arguments.
    public var help = false

    /// Splits `arguments` (the words after the subcommand). `--` ends the options.
    init(_ arguments: [String], command: String, options known: [String], flags knownFlags: [String] = []) throws(UsageError) {
        let knownSet = Set(known)
        let flagSet = Set(knownFlags)
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            if argument == "--help" || argument == "-h" || argument == "help" {
                help = true
            } else if argument == "--" {
                positional.append(contentsOf: rest)
                break
            } else if argument.hasPrefix("--") {
                var name = String(argument.dropFirst(2))
                var value: String?
                if let equals = name.firstIndex(of: "=") {
                    value = String(name[name.index(after: equals)...])
                    name = String(name[..<equals])
                }
                if flagSet.contains(name) {
                    guard value == nil else { throw .invalidValue("--\(name)", given: value!, wanted: "no value") }
                    flags.insert(name)
                    continue
                }
                guard knownSet.contains(name) else {
                    throw .unknownOption("--\(name)", command: command,
                                         suggestion: closest(to: name, in: known + knownFlags).map { "--\($0)" })
                }
                if value == nil {
                    guard let next = rest.popFirst() else { throw .missingValue("--\(name)") }
                    value = next
                }
                options[name] = value
            } else if argument.hasPrefix("-") && argument.count > 1 {
                throw .unknownOption(argument, command: command, suggestion: nil)
            } else {
                positional.append(argument)
            }
        }
    }
}

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

import Foundation
