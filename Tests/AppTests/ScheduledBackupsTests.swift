import Foundation
import Synchronization
import XCTest
@testable import App

/// The server's own backups: one when due by the newest file's name, none before, the oldest
/// removed past `backupKeep`, and nothing at all with `backupEvery` 0.
final class ScheduledBackupsTests: XCTestCase {
    func testBackupsAreTakenWhenDueAndTheNewestKept() throws {
        let folder = BackupFixture.scratchFolder("scheduled-backups")
        defer { try? FileManager.default.removeItem(at: folder) }
        let databases = try DatabaseStartup.open(BackupFixture.configuration(data: folder.path), logger: .disabled)
        defer { databases.close() }
        try BackupFixture.fill(databases)
        let clock = Atomic<Int64>(1_765_000_000)
        let backups = ScheduledBackups(databases: databases, dataDirectory: folder.path, everyHours: 6, keep: 2, logger: .disabled,
                                       now: { clock.load(ordering: .relaxed) })

        let first = try XCTUnwrap(backups.runIfDue())
        XCTAssertEqual((first as NSString).lastPathComponent, "photoscroll-20251206T054640Z.psbackup")
        XCTAssertEqual(try BackupFile.decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: first)))).table("comments")?.rows.count, 2)
        clock.add(6 * 3600 - 1, ordering: .relaxed)
        XCTAssertNil(backups.runIfDue(), "not due for another second")
        // A restart: a new scheduler finds the newest file and waits for it to age.
        let restarted = ScheduledBackups(databases: databases, dataDirectory: folder.path, everyHours: 6, keep: 2, logger: .disabled,
                                         now: { clock.load(ordering: .relaxed) })
        XCTAssertNil(restarted.runIfDue())
        clock.add(1, ordering: .relaxed)
        XCTAssertNotNil(restarted.runIfDue())
        clock.add(6 * 3600, ordering: .relaxed)
        XCTAssertNotNil(restarted.runIfDue())
        XCTAssertEqual(restarted.existing(), ["photoscroll-20251206T114640Z.psbackup", "photoscroll-20251206T174640Z.psbackup"],
                       "the oldest went; two are kept")

        let off = ScheduledBackups(databases: databases, dataDirectory: folder.path + "/other", everyHours: 0, keep: 2, logger: .disabled)
        XCTAssertNil(off.runIfDue())
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.path + "/other/backups"))
    }
}
