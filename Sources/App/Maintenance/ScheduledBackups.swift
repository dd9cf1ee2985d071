import Foundation
import Observability
import SQL

/// The server's own backups (`backupEvery` hours, the newest `backupKeep` kept) in
/// `<data>/backups`, as `photoscroll backup` writes them. Asked every minute by the
/// housekeeping; the newest file's name says when the last one was taken, so a restart does not
/// take another early. With replicas on one database, the one holding the lock takes it.
final class ScheduledBackups: Sendable {
    static let lock = SQLLockKey("scheduled-backups", 0)
    static let prefix = "photoscroll-"
    static let suffix = ".psbackup"

    private let databases: ApplicationDatabases
    let folder: String
    private let everySeconds: Int64
    private let keep: Int
    private let now: @Sendable () -> Int64
    private let logger: Logger

    init(databases: ApplicationDatabases, dataDirectory: String, everyHours: Int, keep: Int, logger: Logger,
         now: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) }) {
        self.databases = databases
        folder = dataDirectory + "/backups"
        everySeconds = Int64(everyHours) * 3600
        self.keep = keep
        self.now = now
        self.logger = logger
    }

    /// `photoscroll-20261207T031500Z.psbackup`: the time, in UTC, sorts as the name does.
    static func name(at seconds: Int64) -> String {
        let date = Date(timeIntervalSince1970: TimeInterval(seconds))
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let stamp = String(format: "%04d%02d%02dT%02d%02d%02dZ", c.year!, c.month!, c.day!, c.hour!, c.minute!, c.second!)
        return prefix + stamp + suffix
    }

    /// The backups in the folder, oldest first.
    func existing() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { $0.hasPrefix(Self.prefix) && $0.hasSuffix(Self.suffix) }.sorted()
    }

    /// Takes a backup when the newest is `backupEvery` hours old (or there is none), then removes
    /// all but the newest `keep`. Returns the file written, if any. Failures are logged, not thrown.
    @discardableResult
    func runIfDue() -> String? {
        guard everySeconds > 0 else { return nil }
        do {
            guard let held = try databases.comments.tryLock(Self.lock) else { return nil }
            defer { held.release() }
            let time = now()
            if let newest = existing().last, time - modified(newest) < everySeconds { return nil }
            let path = folder + "/" + Self.name(at: time)
            let snapshot = try BackupSnapshot.take(from: databases, sessions: false, now: time)
            try BackupCommand.write(BackupFile.encode(snapshot), to: path)
            for old in existing().dropLast(keep) { try? FileManager.default.removeItem(atPath: folder + "/" + old) }
            logger.info("wrote a backup", [("path", path), ("rows", String(snapshot.rowCount))])
            return path
        } catch {
            logger.error("cannot write the scheduled backup", [("error", "\(error)")])
            return nil
        }
    }

    /// When a backup was taken, from its name (its file's time may be a copy's); 0 when the name is not one of ours.
    private func modified(_ name: String) -> Int64 {
        let digits = name.dropFirst(Self.prefix.count).dropLast(Self.suffix.count).filter(\.isNumber).compactMap(\.wholeNumberValue)
        guard digits.count == 14 else { return 0 }
        func number(_ range: Range<Int>) -> Int { digits[range].reduce(0) { $0 * 10 + $1 } }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let components = DateComponents(year: number(0..<4), month: number(4..<6), day: number(6..<8),
                                        hour: number(8..<10), minute: number(10..<12), second: number(12..<14))
        return calendar.date(from: components).map { Int64($0.timeIntervalSince1970) } ?? 0
    }
}
