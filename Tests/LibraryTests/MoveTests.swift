import Foundation
@testable import Library
import XCTest

/// Ids follow the photo, not the path: renames, folder moves and copy-then-delete keep them.
final class MoveTests: XCTestCase {
    func testRenamingAFolderOfAThousandPhotosKeepsEveryId() throws {
        let folders = try Folders(self)
        for i in 0..<1_000 { folders.fake("2019/trip/img\(i).jpg", 300 + i, 200) }
        folders.fake("2020/other.jpg", 100, 100)
        let renderer = FakeRenderer()
        let library = try folders.library(renderer: renderer)
        library.refresh()
        XCTAssertTrue(library.waitForIngest(timeoutSeconds: 60))
        let before = Dictionary(uniqueKeysWithValues: library.photos.map { ($0.title, $0.id) })
        let versions = Dictionary(uniqueKeysWithValues: library.photos.map { ($0.id, $0.version) })
        let builds = renderer.builds

        try FileManager.default.moveItem(atPath: folders.photos + "/2019/trip", toPath: folders.photos + "/2020/trip-renamed")
        let result = try library.catalog.scan()
        XCTAssertEqual(result.moved.count, 1_000)
        XCTAssertEqual(result.removed, [])
        XCTAssertEqual(result.added, [])
        let after = Dictionary(uniqueKeysWithValues: library.photos.map { ($0.title, $0.id) })
        XCTAssertEqual(after, before, "every photo keeps its id")
        XCTAssertTrue(library.photos.filter { $0.title.hasPrefix("img") }.allSatisfy { $0.relativePath.hasPrefix("2020/trip-renamed/") })
        XCTAssertTrue(library.photos.allSatisfy { $0.version == versions[$0.id] && $0.status == .ready }, "same bytes, same pyramid")
        library.refresh()
        XCTAssertTrue(library.waitForIngest(timeoutSeconds: 60))
        XCTAssertEqual(renderer.builds, builds, "nothing is built again")
        XCTAssertFalse(library.health.isDegraded)
    }

    func testACopyThenADeleteElsewhereIsAMoveByContent() throws {
        let folders = try Folders(self)
        folders.fake("a/photo1.jpg", 640, 480, extra: "unique bytes")
        folders.fake("a/photo2.jpg", 640, 480)
        let library = try folders.library(renderer: FakeRenderer())
        library.refresh()
        let id = try XCTUnwrap(library.catalog.photo(relativePath: "a/photo1.jpg")).id

        // A copy (new inode, new time) and the original deleted: same bytes, so the same photo.
        let data = try Data(contentsOf: URL(fileURLWithPath: folders.photos + "/a/photo1.jpg"))
        try FileManager.default.createDirectory(atPath: folders.photos + "/b", withIntermediateDirectories: true)
        Thread.sleep(forTimeInterval: 0.01)
        try data.write(to: URL(fileURLWithPath: folders.photos + "/b/renamed.jpg"))
        try FileManager.default.removeItem(atPath: folders.photos + "/a/photo1.jpg")
        let result = try library.catalog.scan()
        XCTAssertEqual(result.moved, [id])
        XCTAssertEqual(library.catalog.photo(relativePath: "b/renamed.jpg")?.id, id)
        XCTAssertEqual(library.photos.count, 2)

        // Different bytes of the same size are another photo: the old one is gone.
        var other = data
        other[other.count - 1] ^= 1
        try other.write(to: URL(fileURLWithPath: folders.photos + "/b/other.jpg"))
        try FileManager.default.removeItem(atPath: folders.photos + "/b/renamed.jpg")
        let again = try library.catalog.scan()
        XCTAssertEqual(again.moved, [])
        XCTAssertEqual(again.removed, [id])
        XCTAssertEqual(again.added.count, 1)
        XCTAssertNotEqual(again.added, [id])
    }

    func testAMoveAcrossTwoScansStillKeepsTheId() throws {
        let folders = try Folders(self)
        folders.fake("x/photo.jpg", 300, 300)
        folders.fake("x/stay.jpg", 300, 200)
        let library = try folders.library(renderer: FakeRenderer())
        library.refresh()
        let id = try XCTUnwrap(library.catalog.photo(relativePath: "x/photo.jpg")).id
        let outside = folders.data + "/aside.jpg"
        try FileManager.default.moveItem(atPath: folders.photos + "/x/photo.jpg", toPath: outside)
        XCTAssertEqual(try library.catalog.scan().removed, [id])
        try FileManager.default.createDirectory(atPath: folders.photos + "/y", withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: outside, toPath: folders.photos + "/y/photo.jpg")
        let back = try library.catalog.scan()
        XCTAssertEqual(back.moved, [id])
        XCTAssertEqual(back.added, [id], "listed again")
        XCTAssertEqual(library.catalog.photo(relativePath: "y/photo.jpg")?.id, id)
    }

    func testAPhotoMovedOntoTheOldPathOfARemovedOneKeepsItsOwnId() throws {
        let folders = try Folders(self)
        folders.fake("one.jpg", 100, 100, extra: "1")
        folders.fake("two.jpg", 200, 100, extra: "2")
        let library = try folders.library(renderer: FakeRenderer())
        library.refresh()
        try FileManager.default.removeItem(atPath: folders.photos + "/one.jpg")
        library.refresh()
        try FileManager.default.moveItem(atPath: folders.photos + "/two.jpg", toPath: folders.photos + "/one.jpg")
        library.refresh()
        XCTAssertEqual(library.photos.map { "\($0.id):\($0.relativePath):\($0.width)" }, ["2:one.jpg:200"])
        // And it survives a restart: the store allows the path on two rows, one present.
        let restarted = try folders.library(renderer: FakeRenderer())
        XCTAssertEqual(restarted.photos.map { "\($0.id):\($0.relativePath)" }, ["2:one.jpg"])
    }
}
