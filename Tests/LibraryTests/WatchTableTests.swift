import Foundation
@testable import Library
import Observability
import TestSupport
import XCTest

/// How batches of inotify events become scans, without the kernel.
final class WatchTableTests: XCTestCase {
    private func table() -> WatchTable {
        var table = WatchTable()
        table.add(1, path: "")
        table.add(2, path: "2020")
        table.add(3, path: "2020/05")
        return table
    }

    private func event(_ watch: Int32, _ mask: UInt32, _ name: String = "", cookie: UInt32 = 0) -> WatchEvent {
        WatchEvent(watch: watch, mask: mask, cookie: cookie, name: name)
    }

    func testFileEventsScanTheirFolderAndDeletionsAreGone() {
        var table = table()
        let outcome = table.handle([
            event(3, WatchTable.create, "a.jpg"), event(3, WatchTable.closeWrite, "a.jpg"),
            event(2, WatchTable.delete, "b.JPG"), event(2, WatchTable.create, "notes.txt"), event(3, WatchTable.create, ".hidden.jpg"),
        ])
        XCTAssertEqual(outcome.scope.directories, ["2020/05", "2020"])
        XCTAssertEqual(outcome.scope.goneFiles, ["2020/b.JPG"])
        XCTAssertFalse(outcome.needsFullScan)
    }

    /// A file closed after writing, or moved in, is whole: its scan takes it at once. One
    /// created again after that is being written until it is closed again.
    func testClosedAndMovedInFilesNeedNotSettle() {
        var table = table()
        let outcome = table.handle([
            event(3, WatchTable.create, "a.jpg"), event(3, WatchTable.closeWrite, "a.jpg"),
            event(1, WatchTable.movedTo, "b.jpg", cookie: 7),
            event(2, WatchTable.create, "c.jpg"),
            event(2, WatchTable.closeWrite, "d.jpg"), event(2, WatchTable.delete, "d.jpg"), event(2, WatchTable.create, "d.jpg"),
        ])
        XCTAssertEqual(outcome.scope.closedFiles, ["2020/05/a.jpg", "b.jpg"])
        var pending = ScanScope(closedFiles: ["2020/c.jpg"])
        pending.formUnion(outcome.scope)
        XCTAssertEqual(pending.closedFiles, ["2020/05/a.jpg", "b.jpg", "2020/c.jpg"])
    }

    /// A scan with the settle wait on takes a file just written once it is known to be whole.
    func testAScanTakesAFileJustClosedAtOnce() throws {
        let folders = try Folders(self)
        folders.fake("fresh.jpg", 300, 200)
        let library = try folders.library(renderer: FakeRenderer())
        library.ingest.stop()
        var options = PhotoCatalog.ScanOptions(examines: false, settleNanoseconds: 3_600 * 1_000_000_000)
        var result = try library.catalog.scan(ScanScope(directories: [""]), options: options)
        XCTAssertEqual(result.added.count, 0, "modified just now: left to settle")
        XCTAssertEqual(result.unsettled, [""])
        options.settledFiles = ["fresh.jpg"]
        result = try library.catalog.scan(ScanScope(directories: [""], closedFiles: ["fresh.jpg"]), options: options)
        XCTAssertEqual(result.added.count, 1, "closed after writing: taken at once")
    }

    func testANewFolderIsWatchedAndListedWhole() {
        var table = table()
        let outcome = table.handle([event(1, WatchTable.create | WatchTable.isDirectory, "2021")])
        XCTAssertEqual(outcome.watch, ["2021"])
        XCTAssertEqual(outcome.scope.trees, ["2021"])
    }

    func testARenamedFolderKeepsItsWatchesUnderTheNewName() {
        var table = table()
        let outcome = table.handle([
            event(1, WatchTable.movedFrom | WatchTable.isDirectory, "2020", cookie: 7),
            event(1, WatchTable.movedTo | WatchTable.isDirectory, "2020-trip", cookie: 7),
        ])
        XCTAssertEqual(outcome.scope.trees, ["2020", "2020-trip"])
        XCTAssertEqual(table.paths[3], "2020-trip/05")
        XCTAssertEqual(table.paths[2], "2020-trip")
        XCTAssertEqual(outcome.unwatch, [])
    }

    func testAFolderMovedOutIsGoneAndUnwatched() {
        var table = table()
        let outcome = table.handle([event(1, WatchTable.movedFrom | WatchTable.isDirectory, "2020", cookie: 9)])
        XCTAssertEqual(outcome.scope.goneTrees, ["2020"])
        XCTAssertEqual(Set(outcome.unwatch), [2, 3])
        XCTAssertNil(table.paths[3])
        XCTAssertTrue(WatchTable.hasUnpairedMove([event(1, WatchTable.movedFrom | WatchTable.isDirectory, "2020", cookie: 9)]))
    }

    func testOverflowOrThePhotosFolderGoingAsksForAFullScan() {
        var table = table()
        XCTAssertTrue(table.handle([event(-1, WatchTable.overflow)]).needsFullScan)
        XCTAssertTrue(table.handle([event(1, WatchTable.deleteSelf)]).needsFullScan)
        XCTAssertFalse(table.handle([event(3, WatchTable.deleteSelf)]).needsFullScan, "seen from its parent")
        let unmounted = table.handle([event(2, WatchTable.unmount)])
        XCTAssertEqual(unmounted.scope.trees, ["2020"])
        XCTAssertTrue(unmounted.scope.goneTrees.isEmpty, "an unmounted disk deletes nothing")
        _ = table.handle([event(3, WatchTable.ignored)])
        XCTAssertNil(table.paths[3])
    }

    func testEventsAreParsedFromTheKernelsLayout() {
        var bytes: [UInt8] = []
        func append(_ watch: Int32, _ mask: UInt32, _ cookie: UInt32, _ name: String) {
            withUnsafeBytes(of: watch.littleEndian) { bytes += $0 }
            withUnsafeBytes(of: mask.littleEndian) { bytes += $0 }
            withUnsafeBytes(of: cookie.littleEndian) { bytes += $0 }
            let padded = Array(name.utf8) + [UInt8](repeating: 0, count: 16 - name.utf8.count % 16)
            withUnsafeBytes(of: UInt32(name.isEmpty ? 0 : padded.count).littleEndian) { bytes += $0 }
            if !name.isEmpty { bytes += padded }
        }
        append(4, WatchTable.create, 0, "photo.jpg")
        append(-1, WatchTable.overflow, 0, "")
        let events = bytes.withUnsafeBytes { FolderWatcher.parse($0) }
        XCTAssertEqual(events, [event(4, WatchTable.create, "photo.jpg"), event(-1, WatchTable.overflow)])
    }
}
