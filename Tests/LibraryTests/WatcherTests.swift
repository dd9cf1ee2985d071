import Foundation
@testable import Library
import Observability
import TestSupport
import XCTest

/// Changes below the photos folder found as they happen (inotify), with no timed rescans.
final class WatcherTests: XCTestCase {
    func testNewFoldersRenamesAndDeletionsAreSeenWithoutATimedRescan() throws {
        #if !os(Linux)
        throw XCTSkip("inotify is Linux only")
        #endif
        let folders = try Folders(self)
        folders.fake("2020/a.jpg", 300, 200)
        let library = try PhotoLibrary(configuration: LibraryConfiguration(
            photosDirectory: folders.photos, dataDirectory: folders.data, ingestConcurrency: 1, rescanSeconds: 0, settleSeconds: 0),
            renderer: FakeRenderer(), logger: .disabled, metrics: .init())
        library.start()
        defer { library.stop(); library.waitForIngest(timeoutSeconds: 30) }
        XCTAssertTrue(eventually(timeout: 30) { library.isReady && library.photos.count == 1 })
        XCTAssertTrue(library.isWatching)

        // A folder made after the start, and a folder inside it: both watched.
        folders.fake("2021/05/b.jpg", 300, 200)
        XCTAssertTrue(eventually(timeout: 30) { library.catalog.photo(relativePath: "2021/05/b.jpg") != nil })
        folders.fake("2021/05/deeper/c.jpg", 300, 200)
        XCTAssertTrue(eventually(timeout: 30) { library.catalog.photo(relativePath: "2021/05/deeper/c.jpg") != nil })

        // A folder renamed: the same ids at the new paths.
        let ids = library.photos.map(\.id)
        try FileManager.default.moveItem(atPath: folders.photos + "/2021", toPath: folders.photos + "/2021-trip")
        XCTAssertTrue(eventually(timeout: 30) { library.catalog.photo(relativePath: "2021-trip/05/deeper/c.jpg") != nil })
        XCTAssertEqual(library.photos.map(\.id), ids)
        // Still watched under the new name.
        folders.fake("2021-trip/05/d.jpg", 300, 200)
        XCTAssertTrue(eventually(timeout: 30) { library.catalog.photo(relativePath: "2021-trip/05/d.jpg") != nil })

        // A file deleted is removed at once (the watcher saw it go), a folder moved out too.
        try FileManager.default.removeItem(atPath: folders.photos + "/2020/a.jpg")
        XCTAssertTrue(eventually(timeout: 30) { library.photo(1) == nil })
        try FileManager.default.moveItem(atPath: folders.photos + "/2021-trip", toPath: folders.data + "/elsewhere")
        XCTAssertTrue(eventually(timeout: 30) { library.photos.isEmpty })
        XCTAssertFalse(library.health.isDegraded, "seen moved out, so not a folder that cannot be reached")
    }

    func testWithoutWatchingTheTimedRescanFindsChanges() throws {
        let folders = try Folders(self)
        folders.fake("a.jpg", 300, 200)
        let library = try PhotoLibrary(configuration: LibraryConfiguration(
            photosDirectory: folders.photos, dataDirectory: folders.data, ingestConcurrency: 1, rescanSeconds: 0.2,
            watchesFolder: false, settleSeconds: 0),
            renderer: FakeRenderer(), logger: .disabled, metrics: .init())
        library.start()
        defer { library.stop(); library.waitForIngest(timeoutSeconds: 30) }
        XCTAssertTrue(eventually(timeout: 30) { library.isReady })
        XCTAssertFalse(library.isWatching)
        folders.fake("b/c.jpg", 300, 200)
        XCTAssertTrue(eventually(timeout: 30) { library.photos.count == 2 })
    }
}

extension WatcherTests {
    func testAPhotosFolderThatAppearsLaterIsWatchedOnceItIsThereAndTheLogSaysWhy() throws {
        #if !os(Linux)
        throw XCTSkip("inotify is Linux only")
        #endif
        let folders = try Folders(self)
        let later = folders.photos + "/mounted-later"
        let sink = MemoryLogSink()
        let library = try PhotoLibrary(configuration: LibraryConfiguration(
            photosDirectory: later, dataDirectory: folders.data, ingestConcurrency: 1, rescanSeconds: 0, settleSeconds: 0),
            renderer: FakeRenderer(), logger: Logger(label: "library", sink: sink), metrics: .init())
        library.start()
        defer { library.stop(); library.waitForIngest(timeoutSeconds: 30) }
        XCTAssertTrue(eventually(timeout: 30) { library.isReady })
        XCTAssertFalse(library.isWatching)
        XCTAssertTrue(eventually(timeout: 30) { sink.all.contains { $0.level == .warning && $0.message.hasPrefix("cannot watch the photos folder") } })
        // The folder appears (a disk mounted late): found by the health check, watched from then on.
        folders.fake("mounted-later/a.jpg", 300, 200)
        XCTAssertTrue(eventually(timeout: 30) { library.isWatching && library.photos.count == 1 })
        folders.fake("mounted-later/b.jpg", 300, 200)
        XCTAssertTrue(eventually(timeout: 30) { library.photos.count == 2 }, "watched now: no timed rescan is configured")
    }
}
