import Foundation
import Glibc
import Imaging
@testable import Library
import Observability
import POSIX
import TestSupport
import XCTest

/// The watch limit: reached at the start or later, the library rescans instead and says so.
final class WatchLimitTests: XCTestCase {
    func testAtTheWatchLimitChangesAreFoundByRescansAndReadyzSaysSo() throws {
        #if !os(Linux)
        throw XCTSkip("inotify is Linux only")
        #endif
        let folders = try Folders(self)
        for name in ["a", "b", "c"] { folders.fake("\(name)/\(name).jpg", 300, 200) }
        let sink = MemoryLogSink()
        let library = try PhotoLibrary(configuration: LibraryConfiguration(
            photosDirectory: folders.photos, dataDirectory: folders.data, ingestConcurrency: 1, rescanSeconds: 0, settleSeconds: 0,
            unwatchedRescanSeconds: 0.2, maxWatchedFolders: 2),
            renderer: FakeRenderer(), logger: Logger(label: "library", sink: sink), metrics: .init())
        library.start()
        defer { library.stop(); library.waitForIngest(timeoutSeconds: 30) }
        XCTAssertTrue(eventually(timeout: 30) { library.isReady })
        XCTAssertEqual(library.photos.count, 3)
        XCTAssertFalse(library.isWatching)
        let status = try XCTUnwrap(library.watchStatus)
        XCTAssertTrue(status.contains("watch limit") && status.contains("every 0.2 s"), status)
        XCTAssertTrue(sink.all.contains { $0.level == .warning && $0.message.hasPrefix("cannot watch the photos folder") })
        // No timed rescan is configured (rescanSeconds 0): the fallback finds the new photo.
        folders.fake("d/d.jpg", 300, 200)
        XCTAssertTrue(eventually(timeout: 30) { library.photos.count == 4 })
    }

    func testRunningOutOfWatchesLaterDropsTheWatcherForRescans() throws {
        #if !os(Linux)
        throw XCTSkip("inotify is Linux only")
        #endif
        let folders = try Folders(self)
        folders.fake("a/a.jpg", 300, 200)
        let sink = MemoryLogSink()
        let library = try PhotoLibrary(configuration: LibraryConfiguration(
            photosDirectory: folders.photos, dataDirectory: folders.data, ingestConcurrency: 1, rescanSeconds: 0, settleSeconds: 0,
            unwatchedRescanSeconds: 0.2, maxWatchedFolders: 3),
            renderer: FakeRenderer(), logger: Logger(label: "library", sink: sink), metrics: .init())
        library.start()
        defer { library.stop(); library.waitForIngest(timeoutSeconds: 30) }
        XCTAssertTrue(eventually(timeout: 30) { library.isReady && library.isWatching })
        XCTAssertNil(library.watchStatus)
        folders.fake("b/b.jpg", 300, 200)
        folders.fake("c/c.jpg", 300, 200)
        folders.fake("d/d.jpg", 300, 200)
        XCTAssertTrue(eventually(timeout: 30) { !library.isWatching && library.watchStatus != nil })
        // The line is logged just after the watcher is dropped: waited for, not raced.
        XCTAssertTrue(eventually(timeout: 30) { sink.all.contains { $0.message.hasPrefix("stopped watching the photos folder") } })
        XCTAssertTrue(eventually(timeout: 30) { library.photos.count == 4 })
        folders.fake("e/e.jpg", 300, 200)
        XCTAssertTrue(eventually(timeout: 30) { library.photos.count == 5 })
    }
}
