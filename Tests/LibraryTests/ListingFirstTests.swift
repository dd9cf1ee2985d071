import Foundation
@testable import Library
import Observability
import Synchronization
import TestSupport
import XCTest

/// A large folder is listed first (one stat a file) and examined in the background.
final class ListingFirstTests: XCTestCase {
    func testAListingIsOneStatAFileAndARescanOfNothingNewChangesNothing() throws {
        let folders = try Folders(self)
        for i in 0..<4_000 { folders.fake("\(2000 + i / 400)/\(i % 12 + 1)/img\(i).jpg", 300, 200) }
        FileManager.default.createFile(atPath: folders.photos + "/2000/notes.txt", contents: Data("not a photo".utf8))
        let library = try folders.library(renderer: FakeRenderer())
        let listed = try library.catalog.scan(.everything, options: .init(examines: false))
        XCTAssertEqual(listed.added.count, 4_000)
        XCTAssertEqual(listed.stats, 4_000, "one stat per photo file, none for folders or other files")
        XCTAssertEqual(library.catalog.unexaminedCount, 4_000)
        XCTAssertTrue(library.photos.allSatisfy { $0.status == .processing && $0.width == 0 })
        // Ids in name order, numbers as numbers, folder by folder.
        let first = library.photos.prefix(3).map(\.relativePath)
        XCTAssertEqual(first, ["2000/1/img0.jpg", "2000/1/img12.jpg", "2000/1/img24.jpg"])

        let generation = library.catalog.generation
        let again = try library.catalog.scan(.everything, options: .init(examines: false))
        XCTAssertTrue(again.isEmpty)
        XCTAssertEqual(again.stats, 4_000)
        XCTAssertEqual(library.catalog.generation, generation, "nothing republished")
    }

    func testTheBackgroundExaminesAndBuildsWhatWasListed() throws {
        let folders = try Folders(self)
        for i in 0..<300 { folders.fake("f\(i % 3)/img\(i).jpg", 300 + i, 200) }
        let metrics = MetricsRegistry()
        let library = try PhotoLibrary(configuration: LibraryConfiguration(
            photosDirectory: folders.photos, dataDirectory: folders.data, ingestConcurrency: 2, settleSeconds: 0),
            renderer: FakeRenderer(), logger: .disabled, metrics: metrics)
        XCTAssertFalse(library.isReady)
        let changes = Mutex(0)
        library.catalog.observe { change in changes.withLock { $0 += change.changed.count } }
        library.start()
        defer { library.stop(); library.waitForIngest(timeoutSeconds: 30) }
        XCTAssertTrue(eventually(timeout: 30) { library.isReady })
        XCTAssertTrue(eventually(timeout: 30) { library.photos.count == 300 && library.photos.allSatisfy { $0.status == .ready } })
        XCTAssertEqual(library.catalog.unexaminedCount, 0)
        XCTAssertEqual(library.photos.map(\.width).sorted(), Array(300..<600))
        // The gauges and the change feed follow the catalog's publication of the last build.
        let ready = metrics.gauge("photoscroll_photos", help: ""), unexamined = metrics.gauge("photoscroll_photos_unexamined", help: "")
        XCTAssertTrue(eventually(timeout: 30) { ready.value([("status", "ready")]) == 300 && changes.withLock { $0 } >= 300 })
        XCTAssertEqual(ready.value([("status", "ready")]), 300)
        XCTAssertEqual(unexamined.value(), 0)
        XCTAssertGreaterThanOrEqual(changes.withLock { $0 }, 300, "each photo's examination and build is a change")
        // Ready photos survive a restart as they are: ready at once, nothing to examine.
        library.stop()
        let restarted = try folders.library(renderer: FakeRenderer())
        XCTAssertTrue(restarted.isReady)
        XCTAssertEqual(restarted.catalog.unexaminedCount, 0)
        XCTAssertTrue(restarted.photos.allSatisfy { $0.status == .ready })
    }

    func testViewingAPhotoExaminesItAtOnce() throws {
        let folders = try Folders(self)
        folders.fake("a.jpg", 640, 480)
        let library = try folders.library(renderer: FakeRenderer())
        try library.catalog.scan(.everything, options: .init(examines: false))
        let listed = try XCTUnwrap(library.photo(1))
        XCTAssertEqual(listed.width, 0)
        library.prepareForViewing(1)
        let examined = try XCTUnwrap(library.photo(1))
        XCTAssertEqual([examined.width, examined.height], [640, 480])
        XCTAssertNotEqual(examined.version, listed.version, "a provisional version until the bytes are hashed")
        XCTAssertEqual(library.catalog.entry(1)?.contentHash.count, 16)
    }

    func testAFileStillBeingWrittenWaitsUntilItIsStill() throws {
        let folders = try Folders(self)
        folders.fake("old.jpg", 100, 100)
        let library = try folders.library(renderer: FakeRenderer())
        library.refresh()
        folders.fake("sub/copying.jpg", 200, 100)
        let modified = try XCTUnwrap(library.catalog.folder.fingerprint("sub/copying.jpg")).modified
        let settle = 2_000_000_000
        let early = try library.catalog.scan(.everything, options: .init(examines: false, settleNanoseconds: settle, now: modified + settle / 2))
        XCTAssertEqual(early.added, [])
        XCTAssertEqual(early.unsettled, ["sub"])
        XCTAssertEqual(early.settlesAt, modified + settle)
        let later = try library.catalog.scan(.init(directories: ["sub"]),
                                             options: .init(examines: false, settleNanoseconds: settle, now: modified + settle))
        XCTAssertEqual(later.added, [2])
        XCTAssertTrue(later.unsettled.isEmpty)
    }

    func testFilesWrittenJustBeforeTheStartAreListedOnceReady() throws {
        let folders = try Folders(self)
        folders.fake("old/a.jpg", 100, 100)
        let library = try PhotoLibrary(configuration: LibraryConfiguration(
            photosDirectory: folders.photos, dataDirectory: folders.data, ingestConcurrency: 1, rescanSeconds: 0,
            watchesFolder: false, settleSeconds: 0.5),
            renderer: FakeRenderer(), logger: .disabled, metrics: .init())
        folders.fake("new/b.jpg", 100, 100) // still "being written" for half a second
        library.start()
        defer { library.stop(); library.waitForIngest(timeoutSeconds: 30) }
        XCTAssertTrue(eventually(timeout: 30) { library.isReady })
        XCTAssertEqual(library.photos.count, 2, "ready means what was there at the start is listed")
    }

    func testAPartialScanLooksOnlyAtItsFolders() throws {
        let folders = try Folders(self)
        folders.fake("a/one.jpg", 100, 100)
        folders.fake("b/two.jpg", 100, 100)
        let library = try folders.library(renderer: FakeRenderer())
        library.refresh()
        folders.fake("a/three.jpg", 100, 100)
        try FileManager.default.removeItem(atPath: folders.photos + "/b/two.jpg")
        let result = try library.catalog.scan(.init(directories: ["a"]), options: .init())
        XCTAssertEqual(result.added, [3])
        XCTAssertEqual(result.removed, [], "b was not looked at")
        XCTAssertEqual(result.stats, 2)
        let gone = try library.catalog.scan(.init(goneFiles: ["b/two.jpg"]), options: .init())
        XCTAssertEqual(gone.removed, [2])
    }
}
