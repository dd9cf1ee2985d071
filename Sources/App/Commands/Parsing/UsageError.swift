/// A mistake on the command line, said so the person can fix it; the process exits 64.
public enum UsageError: Error, Equatable, CustomStringConvertible {
    /// `--prot` given to `serve`; `suggestion` is the closest option the command takes.
    case unknownOption(String, command: String, suggestion: String?)
    /// `--port` as the last argument.
    case missingValue(String)
    /// `--port 80a`: what was given and what is wanted ("a number from 0 to 65535").
    case invalidValue(String, given: String, wanted: String)
    /// A word that is no subcommand where only one may stand (`photoscroll injest`).
    case unknownCommand(String, suggestion: String?)
    /// Positional arguments to a command that takes none.
    case unexpectedArguments(command: String, [String])
    /// What the command needs, in its own words (`export takes one photo … and --out DIR.`).
    case missing(String)

    public var description: String {
        switch self {
        case .unknownOption(let option, let command, let suggestion):
            if let suggestion { return "unknown option \(option); did you mean \(suggestion)?" }
            return "unknown option \(option); 'photoscroll \(command) --help' lists the options."
        case .missingValue(let option):
            return "\(option) needs a value."
        case .invalidValue(let option, let given, let wanted):
            return "\(option) needs \(wanted), not \"\(given)\"."
        case .unknownCommand(let word, let suggestion):
            if let suggestion { return "unknown command \(word); did you mean \(suggestion)?" }
            return "unknown command \(word); 'photoscroll --help' lists the commands."
        case .unexpectedArguments(let command, let arguments):
            return "\(command) takes no arguments, but got \(arguments.joined(separator: " "))."
        case .missing(let text):
            return text
        }
    }
}

/// The closest of `candidates` to `word`, when it is close enough to be a slip of the keyboard:
/// at most a third of its letters added, dropped, changed or swapped (two for short words).
func closest(to word: String, in candidates: [String]) -> String? {
    let limit = max(2, word.count / 3)
    let scored = candidates.map { ($0, editDistance(word, $0)) }.filter { $0.1 <= limit }
    return scored.min { $0.1 < $1.1 || ($0.1 == $1.1 && $0.0 < $1.0) }?.0
}

/// Optimal string alignment distance: insertions, deletions, substitutions, and swaps of two
/// neighbouring letters each count one.
func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a), b = Array(b)
    if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
    var previous2 = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    for i in 1...a.count {
        var row = [i] + [Int](repeating: 0, count: b.count)
        for j in 1...b.count {
            let cost = a[i - 1] == b[j - 1] ? 0 : 1
            row[j] = min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + cost)
            if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                row[j] = min(row[j], previous2[j - 2] + 1)
            }
        }
        previous2 = previous
        previous = row
    }
    return previous[b.count]
}
