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
