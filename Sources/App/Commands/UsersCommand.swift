import Access
import Foundation
import Observability
import POSIX

/// `photoscroll users add NAME [--owner]`, `users passwd NAME`, `users remove NAME`, `users list`:
/// the accounts in the configured database (SQLite in the data folder, or PostgreSQL), while
/// servers run or not. Passwords are read from standard input, one line, never from the command
/// line (which other users of the machine can see). A change that ends sessions (a new
/// password, a removed user) reaches running servers at once on PostgreSQL, and within
/// `accessCacheSeconds` on SQLite.
public struct UsersCommand: Sendable, Equatable {
    public enum Action: Sendable, Equatable {
        case add(name: String, owner: Bool)
        case passwd(name: String)
        case remove(name: String)
        case list
    }

    public var configuration: ConfigurationOptions
    public var action: Action

    public init(configuration: ConfigurationOptions = ConfigurationOptions(), action: Action) {
        self.configuration = configuration
        self.action = action
    }

    /// Runs `action`; `password` gives the line read from standard input. Returns the exit code.
    static func run(_ action: Action, configuration: Configuration, logger: Logger, password: () throws -> String,
                    output: (String) -> Void) throws -> Int32 {
        let databases = try DatabaseStartup.open(configuration, logger: logger)
        defer { databases.close() }
        let store = try AccessStore(database: databases.access)
        do {
            switch action {
            case .add(let name, let owner):
                try Credentials.checkName(name)
                if try store.user(named: name) != nil { throw AccessError(.conflict, "There is already a user named \(name).") }
                let role: Role = owner ? .owner : .member
                try store.addUser(name: name, password: try password(), role: role)
                output("added \(name) (\(role.rawValue))")
            case .passwd(let name):
                guard try store.user(named: name) != nil else { throw AccessError(.notFound, "There is no user named \(name).") }
                try store.setPassword(name: name, password: try password())
                output("changed the password of \(name); every session of \(name) has ended")
            case .remove(let name):
                try store.removeUser(name: name)
                output("removed \(name), with its sessions and the share links it made")
            case .list:
                for user in try store.users() {
                    output("\(user.name)\t\(user.role.rawValue)\t\(PhotoRecord.date(user.createdAt))")
                }
            }
        } catch let error as AccessError {
            throw UsersError(description: error.description)
        }
        return 0
    }

    /// One line from standard input: the password. A prompt goes to standard error on a terminal.
    static func readPassword(for name: String) throws -> String {
        if System.isTerminal(0) {
            FileHandle.standardError.write(Data("Password for \(name) (at least \(Credentials.minimumPasswordLength) characters): ".utf8))
        }
        guard let line = readLine(strippingNewline: true) else {
            throw UsersError(description: "No password on standard input: give it as one line, e.g. printf '%s\\n' \"$PASSWORD\" | photoscroll users add \(name).")
        }
        return line.hasSuffix("\r") ? String(line.dropLast()) : line
    }
}

extension UsersCommand: Command {
    public static let name = "users"
    public static let usage = "photoscroll users (add NAME [--owner] | passwd NAME | remove NAME | list) [--config FILE] [--data DIR] [--database URL]"
    public static let abstract = """
    Manage the accounts that sign in: add one (the password is read from standard input, one line,
    at least 10 characters), change a password (every session of the account ends), remove one, or
    list them. Works on the configured database while servers run.
    """
    public static var options: [String] { ConfigurationOptions.names }
    public static var flags: [String] { ["owner"] }
    public static var optionHelp: [String: String] { ["owner": "         With add: the account is an owner (shares, accounts), not a member."] }

    public init(_ arguments: ArgumentList) throws(UsageError) {
        let words = arguments.positional
        let configuration = try ConfigurationOptions(arguments)
        let owner = arguments.flags.contains("owner")
        switch (words.first, words.count) {
        case ("add", 2): self.init(configuration: configuration, action: .add(name: words[1], owner: owner))
        case ("passwd", 2): self.init(configuration: configuration, action: .passwd(name: words[1]))
        case ("remove", 2): self.init(configuration: configuration, action: .remove(name: words[1]))
        case ("list", 1): self.init(configuration: configuration, action: .list)
        default:
            throw .missing("users takes add NAME [--owner], passwd NAME, remove NAME or list.")
        }
        if owner, case .add = action {} else if owner { throw .missing("--owner goes with users add NAME.") }
    }

    public func run(environment: [String: String]) throws -> Int32 {
        let configuration = try Self.configuration(self.configuration, environment: environment)
        let logger = Self.logger(configuration)
        let name: String = switch action {
        case .add(let name, _), .passwd(let name), .remove(let name): name
        case .list: ""
        }
        return try Self.run(action, configuration: configuration, logger: logger, password: { try Self.readPassword(for: name) },
                            output: { print($0) })
    }
}
