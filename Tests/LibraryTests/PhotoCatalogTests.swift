import Foundation
import Imaging
@testable import Library
import Synchronization
import XCTest

final class PhotoCatalogTests: XCTestCase {
    func testFirstScanNumbersFilesInNameOrderSkippingHiddenAndOtherFiles() throws {
        let folders = try Folders(self)
        for name in ["photo10.jpg", "b.PNG", "photo2.jpeg", "a.webp", "sub/c.TIFF", ".hidden.jpg", "notes.txt", ".cache/d.jpg"] {
            folders.fake(name, 300, 200)
        }
        let library = try folders.library(renderer: FakeRenderer())
        library.refresh()
        XCTAssertEqual(library.photos.map(\.relativePath), ["a.webp", "b.PNG", "photo2.jpeg", "photo10.jpg", "sub/c.TIFF"])
        XCTAssertEqual(library.photos.map(\.id), [1, 2, 3, 4, 5])
        XCTAssertEqual(library.photos.map(\.title), ["a", "b", "photo2", "photo10", "c"])
        XCTAssertEqual(library.photo(3)?.width, 300)
    }

    func testIdsStayStableAcrossAddsRemovesAndRestarts() throws {
        let folders = try Folders(self)
        for name in ["photo1.jpg", "photo2.jpg", "photo3.jpg"] { folders.fake(name, 100, 100, extra: name) }
        var library: PhotoLibrary? = try folders.library(renderer: FakeRenderer())
        library!.refresh()
        XCTAssertEqual(library!.photos.map(\.id), [1, 2, 3])

        try FileManager.default.removeItem(atPath: folders.photos + "/photo2.jpg")
        folders.fake("photo0.jpg", 100, 100, extra: "new")  // sorts first, but must not renumber anyone
        library!.refresh()
        XCTAssertEqual(library!.photos.map { "\($0.id):\($0.title)" }, ["1:photo1", "3:photo3", "4:photo0"])
        XCTAssertNil(library!.photo(2))
        library = nil

        // Restart on the same data folder: the catalog comes from SQLite before any scan.
        let restarted = try folders.library(renderer: FakeRenderer())
        XCTAssertEqual(restarted.photos.map { "\($0.id):\($0.title)" }, ["1:photo1", "3:photo3", "4:photo0"])
        folders.fake("photo2.jpg", 100, 100, extra: "photo2.jpg")  // the same file returns: it gets its id back
        folders.fake("photo9.jpg", 100, 100, extra: "nine")
        restarted.refresh()
        XCTAssertEqual(restarted.photos.map { "\($0.id):\($0.title)" }, ["1:photo1", "2:photo2", "3:photo3", "4:photo0", "5:photo9"])
    }

    func testImageInfoAgreesWithThePhotoAcrossGapsInIds() throws {
        let folders = try Folders(self)
        for name in ["photo1.jpg", "photo2.jpg", "photo3.jpg"] { folders.fake(name, 100 + name.count, 50) }
        folders.fake("photo4.jpg", 640, 480)
        let library = try folders.library(renderer: FakeRenderer())
        library.refresh()
        // Remove photo 2: photo 3 and 4 are no longer at id - 1 in the list.
        try FileManager.default.removeItem(atPath: folders.photos + "/photo2.jpg")
        library.refresh()
        XCTAssertEqual(library.photos.map(\.id), [1, 3, 4])
        for id in [1, 3, 4] {
            let photo = try XCTUnwrap(library.photo(id))
            XCTAssertEqual(library.imageInfo(id), PhotoImageInfo(version: photo.version, width: photo.width, height: photo.height, status: photo.status))
        }
        XCTAssertEqual(library.imageInfo(4)?.width, 640)
        XCTAssertEqual(library.imageInfo(4)?.pyramid(tileSize: 256)?.maxZoom, 2)
        for missing in [0, 2, 5, -1] { XCTAssertNil(library.imageInfo(missing)) }
    }

    func testVersionChangesWithTheBytesNotWithATouch() throws {
        let folders = try Folders(self)
        folders.fake("photo1.jpg", 100, 100, extra: "one")
        let renderer = FakeRenderer()
        let library = try folders.library(renderer: renderer)
        library.refresh()
        let first = try XCTUnwrap(library.photo(1)).version
        XCTAssertEqual(first.count, 12)
        XCTAssertTrue(first.allSatisfy(\.isHexDigit))

        // Touch: new mtime, same bytes.
        let path = folders.photos + "/photo1.jpg"
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-3600)], ofItemAtPath: path)
        library.refresh()
        XCTAssertEqual(library.photo(1)?.version, first)

        folders.fake("photo1.jpg", 100, 100, extra: "two")
        library.refresh()
        let second = try XCTUnwrap(library.photo(1)).version
        XCTAssertNotEqual(second, first)
        XCTAssertEqual(library.photo(1)?.id, 1)

        // The same bytes under other render settings are another version too.
        let other = try PhotoLibrary(configuration: LibraryConfiguration(
            photosDirectory: folders.photos, dataDirectory: folders.data + "2",
            settings: RenderSettings(jpegQuality: 70), rescanSeconds: 0), renderer: renderer, logger: .disabled, metrics: .init())
        other.refresh()
        XCTAssertNotEqual(other.photo(1)?.version, second)
    }

    func testUnchangedFilesAreNotRehashedOrReprobed() throws {
        let folders = try Folders(self)
        folders.fake("photo1.jpg", 100, 100)
        final class CountingProbe: PhotoRendering, Sendable {
            let inner = FakeRenderer()
            let probes = Atomic<Int>(0)
            func probe(_ path: PhotoSource) throws -> PhotoSize { probes.add(1, ordering: .relaxed); return try inner.probe(path) }
            func buildPyramid(source: PhotoSource, into directory: String) throws -> TilePyramid { try inner.buildPyramid(source: source, into: directory) }
            func renderTile(source: PhotoSource, tile: TileCoordinate) throws -> [UInt8] { try inner.renderTile(source: source, tile: tile) }
            func thumbnail(source: PhotoSource) throws -> [UInt8] { try inner.thumbnail(source: source) }
            func tilePath(in directory: String, _ tile: TileCoordinate) -> String { inner.tilePath(in: directory, tile) }
            func renderRegion(source: PhotoSource, pyramidDirectory: String?, pyramid: TilePyramid, _ rendition: RegionRendition) throws -> [UInt8] {
                try inner.renderRegion(source: source, pyramidDirectory: pyramidDirectory, pyramid: pyramid, rendition)
            }
        }
        let renderer = CountingProbe()
        let library = try folders.library(renderer: renderer)
        library.refresh()
        library.refresh()
        library.refresh()
        XCTAssertEqual(renderer.probes.load(ordering: .relaxed), 1)
    }

    func testUnreadableFilesFailAloneWithAReason() throws {
        let folders = try Folders(self)
        folders.fake("good.jpg", 600, 400)
        FileManager.default.createFile(atPath: folders.photos + "/empty.jpg", contents: Data())
        FileManager.default.createFile(atPath: folders.photos + "/text.jpg", contents: Data("hello".utf8))
        let renderer = FakeRenderer()
        renderer.buildGate = DispatchSemaphore(value: 0)  // the good photo is seen before its build
        let library = try folders.library(renderer: renderer)
        library.refresh()
        let byTitle = Dictionary(uniqueKeysWithValues: library.photos.map { ($0.title, $0) })
        XCTAssertEqual(byTitle["empty"]?.status, .failed)
        XCTAssertEqual(byTitle["text"]?.status, .failed)
        XCTAssertTrue(byTitle["text"]?.error?.contains("not an image") ?? false, byTitle["text"]?.error ?? "no error")
        XCTAssertEqual(byTitle["good"]?.status, .processing)
        renderer.buildGate?.signal()
        XCTAssertTrue(library.waitForIngest(timeoutSeconds: 60))
        XCTAssertEqual(library.photo(byTitle["good"]!.id)?.status, .ready)
    }
}
