import Foundation
@testable import Library
import XCTest

/// A missing, unreadable or emptied folder is not a folder of deleted photos.
final class UnreachableFolderTests: XCTestCase {
    private let second = 1_000_000_000
    private let day = 86_400 * 1_000_000_000

    private func scan(_ library: PhotoLibrary, at now: Int, grace: Int? = nil) throws -> PhotoCatalog.ScanResult {
        try library.catalog.scan(.everything, options: .init(graceNanoseconds: grace ?? day, now: now))
    }

    func testAPhotosFolderMissingForAWhileLosesNothing() throws {
        let folders = try Folders(self)
        for i in 0..<50 { folders.fake("y/img\(i).jpg", 300, 200 + i) }
        let renderer = FakeRenderer()
        let library = try folders.library(renderer: renderer)
        library.refresh()
        XCTAssertTrue(library.waitForIngest(timeoutSeconds: 30))
        let before = library.photos
        let now = PhotoCatalog.wallClock()

        // Unmounted, or moved away for a moment: nothing is removed, not even after the grace.
        try FileManager.default.moveItem(atPath: folders.photos, toPath: folders.photos + ".away")
        for when in [now, now + 2 * day] {
            let result = try scan(library, at: when)
            XCTAssertEqual(result.removed, [])
            XCTAssertEqual(library.photos, before)
            XCTAssertEqual(library.health.unreachable[""]?.reason, "missing")
            XCTAssertEqual(library.health.unreachable[""]?.photos, 50)
        }
        XCTAssertTrue(library.health.summary?.contains("The photos folder is missing") ?? false)
        library.collectGarbage(now: Date().addingTimeInterval(3 * 86_400))
        XCTAssertTrue(before.allSatisfy { FileManager.default.fileExists(atPath: library.catalog.pyramidDirectory($0.version)) })

        // Empty where it had files (an unmounted mount point) is the same.
        try FileManager.default.createDirectory(atPath: folders.photos, withIntermediateDirectories: false)
        XCTAssertEqual(try scan(library, at: now).removed, [])
        XCTAssertEqual(library.health.unreachable[""]?.reason, "empty")

        // Back byte for byte: ready at once, nothing rebuilt, not degraded.
        try FileManager.default.removeItem(atPath: folders.photos)
        try FileManager.default.moveItem(atPath: folders.photos + ".away", toPath: folders.photos)
        let back = try scan(library, at: now)
        XCTAssertTrue(back.isEmpty)
        XCTAssertFalse(library.health.isDegraded)
        XCTAssertEqual(library.photos, before)
        XCTAssertTrue(library.photos.allSatisfy { $0.status == .ready })
        library.refresh()
        XCTAssertTrue(library.waitForIngest(timeoutSeconds: 30))
        XCTAssertEqual(renderer.builds, 50)
    }

    func testAnUnreadableFolderKeepsItsPhotos() throws {
        try XCTSkipIf(getuid() == 0, "root reads every folder; the missing and empty cases cover the rest")
        let folders = try Folders(self)
        folders.fake("locked/a.jpg", 100, 100)
        folders.fake("open/b.jpg", 100, 100)
        let library = try folders.library(renderer: FakeRenderer())
        library.refresh()
        chmod(folders.photos + "/locked", 0)
        defer { chmod(folders.photos + "/locked", 0o755) }
        XCTAssertEqual(try scan(library, at: PhotoCatalog.wallClock()).removed, [])
        XCTAssertTrue(library.health.unreachable["locked"]?.reason.hasPrefix("unreadable") ?? false)
    }

    func testASubfolderThatWentMissingStaysListedForTheGracePeriodOnly() throws {
        let folders = try Folders(self)
        for i in 0..<20 { folders.fake("nas/2019/img\(i).jpg", 300, 200) }
        folders.fake("nas/2018/x.jpg", 100, 200)
        folders.fake("local/kept.jpg", 100, 100)
        folders.fake("local/deleted.jpg", 120, 100)
        let library = try folders.library(renderer: FakeRenderer())
        library.refresh()
        XCTAssertTrue(library.waitForIngest(timeoutSeconds: 30))
        let nas = library.photos.filter { $0.relativePath.hasPrefix("nas/2019/") }
        let deleted = try XCTUnwrap(library.catalog.photo(relativePath: "local/deleted.jpg"))
        let now = PhotoCatalog.wallClock()

        // A file deleted from a folder that is there is simply gone; a folder gone is not.
        try FileManager.default.removeItem(atPath: folders.photos + "/nas/2019")
        try FileManager.default.removeItem(atPath: folders.photos + "/local/deleted.jpg")
        let first = try scan(library, at: now)
        XCTAssertEqual(first.removed, [deleted.id])
        XCTAssertEqual(library.photos.count, 22)
        XCTAssertEqual(library.health.unreachable["nas/2019"], .init(folder: "nas/2019", reason: "missing", photos: 20))
        XCTAssertTrue(library.health.summary?.contains("nas/2019 (missing)") ?? false)

        // Within the grace period every pyramid stays, the deleted photo's too.
        library.collectGarbage(now: Date().addingTimeInterval(3600))
        for photo in nas + [deleted] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: library.catalog.pyramidDirectory(photo.version)))
        }

        // After it, the folder's photos go, and then their pyramids.
        let later = try scan(library, at: now + day + second)
        XCTAssertEqual(Set(later.removed), Set(nas.map(\.id)))
        XCTAssertFalse(library.health.isDegraded)
        XCTAssertEqual(library.photos.map(\.relativePath), ["local/kept.jpg", "nas/2018/x.jpg"])
        let removed = library.collectGarbage(now: Date().addingTimeInterval(86_400 + 60))
        XCTAssertEqual(Set(removed), Set((nas + [deleted]).map(\.version)))
    }

    func testAPhotoBackWithinTheGracePeriodIsReadyWithoutARebuild() throws {
        let folders = try Folders(self)
        folders.fake("a/one.jpg", 300, 200)
        folders.fake("a/two.jpg", 300, 200, extra: "2")
        let renderer = FakeRenderer()
        let library = try folders.library(renderer: renderer, garbageAge: 0)
        library.refresh()
        XCTAssertTrue(library.waitForIngest(timeoutSeconds: 30))
        let photo = try XCTUnwrap(library.catalog.photo(relativePath: "a/one.jpg"))
        let bytes = try Data(contentsOf: URL(fileURLWithPath: folders.photos + "/a/one.jpg"))
        try FileManager.default.removeItem(atPath: folders.photos + "/a/one.jpg")
        library.refresh()
        XCTAssertNil(library.photo(photo.id))
        XCTAssertTrue(FileManager.default.fileExists(atPath: library.catalog.pyramidDirectory(photo.version)), "kept for the grace period")
        try bytes.write(to: URL(fileURLWithPath: folders.photos + "/a/one.jpg"))
        library.refresh()
        XCTAssertEqual(library.photo(photo.id)?.status, .ready)
        XCTAssertTrue(library.waitForIngest(timeoutSeconds: 30))
        XCTAssertEqual(renderer.builds, 2)
    }
}
