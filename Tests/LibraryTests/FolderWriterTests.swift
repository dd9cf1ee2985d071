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
        // Recently Deleted on another file system than the photos folder, so things are copied, not linked.
        let shm = "/dev/shm/folder-writer-\(UUID().uuidString)"
        var here = stat(), there = stat()
        guard stat(root, &here) == 0, mkdir(shm, 0o755) == 0 else { throw XCTSkip("no /dev/shm to hold a second file system") }
        defer { try? FileManager.default.removeItem(atPath: shm) }
        guard stat(shm, &there) == 0, here.st_dev != there.st_dev else { throw XCTSkip("/dev/shm is on the same file system") }

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
}
