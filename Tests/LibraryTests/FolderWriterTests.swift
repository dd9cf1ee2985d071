import Foundation
import Glibc
@testable import Library
import POSIX
import Synchronization
import XCTest

/// What the photos folder holds may change between the scan and a copy, a move to Recently
/// Deleted or a restore: a photo's name may then be a FIFO (whose open would wait for a writer
/// for ever), a device (read for ever) or a link. None of them is read.
final class FolderWriterTests: XCTestCase {
    private var root = ""

    override func setUpWithError() throws {
        root = NSTemporaryDirectory() + "folder-writer-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: root + "/photos/trip", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: root + "/data", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: root + "/outside", withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: root + "/outside/secret.jpg", contents: Data("secret".utf8))
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: root) }

    /// Should a regression block on the FIFO, a writer opened here lets the open go on (and the
    /// test fail) instead of hanging the run.
    private func unblocking(_ fifo: String, _ body: () throws -> Void) rethrows {
        let done = Mutex(false)
        DispatchQueue.global().asyncAfter(deadline: .now() + 10) {
            guard !done.withLock({ $0 }) else { return }
            let writer = open(fifo, O_WRONLY | O_NONBLOCK)
            if writer >= 0 { close(writer) }
        }
        defer { done.withLock { $0 = true } }
        try body()
    }

    func testACopyOfWhatIsNoLongerARegularFileReadsNothing() throws {
        let writer = PhotoFolderWriter(root: root + "/photos")
        XCTAssertEqual(mkfifo(root + "/photos/trip/fifo.jpg", 0o644), 0)
        try unblocking(root + "/photos/trip/fifo.jpg") {
            XCTAssertThrowsError(try writer.copy("trip/fifo.jpg", toFolder: "copies")) { error in
                XCTAssertEqual(error as? FolderWriteError, .notAFile("fifo.jpg"))
            }
        }
        try FileManager.default.createSymbolicLink(atPath: root + "/photos/trip/secret.jpg", withDestinationPath: root + "/outside/secret.jpg")
        XCTAssertThrowsError(try writer.copy("trip/secret.jpg", toFolder: "copies")) { error in
            XCTAssertEqual(error as? FolderWriteError, .notAFile("secret.jpg"))
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: root + "/photos/copies"), [], "nothing copied, nothing left half-made")
    }

    func testATrashedFIFOIsNeverOpenedAndARestoredLinkIsNeverFollowed() throws {
        // Recently Deleted on another file system than the photos folder, so things are copied, not
        // linked: /dev/shm, or a folder on disk where the tests' own folders are in /dev/shm.
        var here = stat(), there = stat()
        XCTAssertEqual(stat(root, &here), 0)
        let candidates: [String] = ["/dev/shm", "/var/tmp", FileManager.default.currentDirectoryPath]
        let other = candidates.first { candidate in
            stat(candidate, &there) == 0 && there.st_dev != here.st_dev && access(candidate, W_OK) == 0
        }
        guard let other else { throw XCTSkip("no writable folder on another file system than \(root)") }
        let shm = other + "/folder-writer-\(UUID().uuidString)"
        XCTAssertEqual(mkdir(shm, 0o755), 0, shm)
        defer { try? FileManager.default.removeItem(atPath: shm) }

        let writer = PhotoFolderWriter(root: root + "/photos")
        XCTAssertEqual(mkfifo(root + "/photos/trip/fifo.jpg", 0o644), 0)
        try unblocking(root + "/photos/trip/fifo.jpg") {
            XCTAssertThrowsError(try writer.moveOut("trip/fifo.jpg", to: shm + "/item")) { error in
                XCTAssertEqual(error as? FolderWriteError, .notAFile("trip/fifo.jpg"))
            }
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: shm + "/item"))

        // A restore copies across file systems: a link in Recently Deleted is not read through.
        try FileManager.default.createSymbolicLink(atPath: shm + "/linked", withDestinationPath: root + "/outside/secret.jpg")
        XCTAssertThrowsError(try writer.place(shm + "/linked", in: "trip", as: "back.jpg")) { error in
            XCTAssertEqual(error as? FolderWriteError, .notAFile("back.jpg"))
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: root + "/photos/trip"), ["fifo.jpg"])
    }

    func testLeftoversOfInterruptedWritesGoOnceADayOldAndNothingElseDoes() throws {
        let photos = root + "/photos"
        let now = Int(Date().timeIntervalSince1970)
        try FileManager.default.createDirectory(atPath: photos + "/Uploads/2024/05", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: photos + "/.hidden", withIntermediateDirectories: true)
        /// A file last changed `age` seconds ago.
        func file(_ path: String, age: Int) {
            FileManager.default.createFile(atPath: photos + "/" + path, contents: Data("bytes".utf8))
            var times = [timeval(tv_sec: now - age, tv_usec: 0), timeval(tv_sec: now - age, tv_usec: 0)]
            XCTAssertEqual(utimes(photos + "/" + path, &times), 0, path)
        }
        let day = 86_400
        file("Uploads/2024/05/.photoscroll-upload-12-345", age: day + 60)
        file("trip/.photoscroll-copy-12-678", age: 2 * day)
        file(".photoscroll-upload-1-1", age: day + 1)
        // Younger than a day: perhaps a write going on now.
        file("trip/.photoscroll-copy-99-1", age: 60)
        // Not a leftover: other hidden files, photos, a hidden folder's contents, a link of that name.
        file("trip/.photoscroll-notes", age: 2 * day)
        file("trip/old.jpg", age: 2 * day)
        file(".hidden/.photoscroll-upload-5-5", age: 2 * day)
        XCTAssertEqual(symlink(root + "/outside/secret.jpg", photos + "/trip/.photoscroll-upload-7-7"), 0)
        XCTAssertEqual(symlink(root + "/outside", photos + "/linked"), 0)
        file("../outside/.photoscroll-upload-8-8", age: 2 * day)

        let removed = PhotoFolderWriter(root: photos).sweepLeftovers(olderThan: day, now: now)
        XCTAssertEqual(Set(removed), ["Uploads/2024/05/.photoscroll-upload-12-345", "trip/.photoscroll-copy-12-678", ".photoscroll-upload-1-1"])
        for gone in removed { XCTAssertFalse(FileManager.default.fileExists(atPath: photos + "/" + gone), gone) }
        for kept in ["trip/.photoscroll-copy-99-1", "trip/.photoscroll-notes", "trip/old.jpg", ".hidden/.photoscroll-upload-5-5",
                     "../outside/.photoscroll-upload-8-8", "../outside/secret.jpg"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: photos + "/" + kept), kept)
        }
        XCTAssertNotNil(try? FileManager.default.destinationOfSymbolicLink(atPath: photos + "/trip/.photoscroll-upload-7-7"))
    }
}
