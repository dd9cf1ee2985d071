import Foundation
@testable import Library
import XCTest

/// The catalog's files as App sees them (`PhotoFile`): what the start's check of comments and
/// `reattach-comments` compare, and a file opened only while the catalog still names it.
final class PhotoFileTests: XCTestCase {
    func testAFileIsListedWithItsHashAndKeptOnceItHasGone() throws {
        let folders = try Folders(self)
        folders.fake("a.jpg", 640, 480, extra: "a")
        folders.fake("b.jpg", 640, 480, extra: "b")
        let library = try folders.library(renderer: FakeRenderer())
        library.refresh()
        let a = try XCTUnwrap(library.photo(relativePath: "a.jpg"))
        let file = try XCTUnwrap(library.file(a.id))
        XCTAssertEqual(file.path, "a.jpg")
        XCTAssertTrue(file.present)
        XCTAssertTrue(file.hashed)
        XCTAssertEqual(file.contentHash, library.catalog.entry(a.id)?.contentHash)
        XCTAssertFalse(file.contentHash.isEmpty)

        try FileManager.default.removeItem(atPath: folders.photos + "/a.jpg")
        _ = try library.catalog.scan()
        XCTAssertEqual(library.files.map(\.path), ["a.jpg", "b.jpg"], "a removed file keeps its id's row")
        XCTAssertEqual(library.files.map(\.present), [false, true])
        XCTAssertNil(library.file(999))
    }

    func testAFileTheCatalogNoLongerNamesIsNotOpenedEvenWhenAnotherTakesItsPlace() throws {
        let folders = try Folders(self)
        folders.fake("a.jpg", 640, 480, extra: "first")
        let library = try folders.library(renderer: FakeRenderer())
        library.refresh()
        let id = try XCTUnwrap(library.photo(relativePath: "a.jpg")).id
        let before = try XCTUnwrap(library.file(id))
        XCTAssertTrue(try library.source(of: before).text().contains("first"))

        // The photo moves (keeping its id), then another file takes its old name.
        try FileManager.default.createDirectory(atPath: folders.photos + "/b", withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: folders.photos + "/a.jpg", toPath: folders.photos + "/b/a.jpg")
        _ = try library.catalog.scan()
        XCTAssertEqual(library.file(id)?.path, "b/a.jpg")
        folders.fake("a.jpg", 320, 240, extra: "newcomer")
        XCTAssertThrowsError(try library.source(of: before).open(), "the row it was cut from names another path now")
        let now = try XCTUnwrap(library.file(id))
        XCTAssertTrue(try library.source(of: now).text().contains("first"))
    }
}
