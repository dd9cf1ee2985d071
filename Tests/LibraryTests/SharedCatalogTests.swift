import Foundation
@testable import Library
import Observability
import SQL
import SQLTesting
import TestSupport
import XCTest

/// Two libraries on one photos folder, one data folder and one catalog database, as two replicas
/// (or two servers on one SQLite data folder) run: one scanner at a time, each pyramid built by
/// one of them, and each sees every photo.
final class SharedCatalogTests: XCTestCase {
    private func library(_ folders: Folders, _ database: SQLDatabase, _ renderer: FakeRenderer, rescan: Double) throws -> PhotoLibrary {
        let library = try PhotoLibrary(configuration: LibraryConfiguration(photosDirectory: folders.photos, dataDirectory: folders.data,
                                                                           tileCacheBytes: 1 << 20, ingestConcurrency: 2,
                                                                           rescanSeconds: rescan, settleSeconds: 0),
                                       database: database, renderer: renderer, logger: .disabled, metrics: MetricsRegistry())
        addTeardownBlock {
            library.stop()
            library.waitForIngest(timeoutSeconds: 60)
            database.close()
        }
        return library
    }

    func testTwoLibrariesOnOneCatalogBuildEachPyramidOnceAndBothSeeNewPhotos() throws {
        try SQLTestDatabase.forEachEngine { place in
            let name = place.engine.rawValue
            let folders = try Folders(self)
            for i in 1...12 { folders.fake("photo-\(i).jpg", 600, 400, extra: "\(name) \(i)") }
            let renderer = FakeRenderer()
            renderer.buildDelaySeconds = 0.05
            let a = try library(folders, try place.open(), renderer, rescan: 0.3)
            let b = try library(folders, try place.open(), renderer, rescan: 0.3)
            a.start()
            b.start()
            let allReady = { (l: PhotoLibrary) in l.photos.count == 12 && l.photos.allSatisfy { $0.status == .ready } }
            XCTAssertTrue(eventually(timeout: 30) { allReady(a) && allReady(b) },
                          "\(name): A \(a.photos.map(\.status)), B \(b.photos.map(\.status))")
            XCTAssertEqual(a.photos.map(\.id), b.photos.map(\.id), name)
            XCTAssertEqual(a.photos.map(\.version), b.photos.map(\.version), name)
            XCTAssertEqual(renderer.builds, 12, "each pyramid is built by one library (\(name))")

            // A new photo: both list it within a rescan, with one id, and it is built once.
            folders.fake("photo-13.jpg", 300, 200, extra: name)
            XCTAssertTrue(eventually(timeout: 30) { a.photos.count == 13 && b.photos.count == 13 && allReadyOf(a, 13) && allReadyOf(b, 13) }, name)
            XCTAssertEqual(a.photos.last?.id, b.photos.last?.id, name)
            XCTAssertEqual(renderer.builds, 13, name)
        }
    }

    func testOnPostgreSQLTheOthersHearOfAChangeAtOnceNotAtTheirNextRescan() throws {
        let place = try SQLTestDatabase.postgres()
        defer { place.remove() }
        let folders = try Folders(self)
        folders.fake("first.jpg", 600, 400)
        let renderer = FakeRenderer()
        // An hour between rescans: only the notifications can tell B in time.
        let a = try library(folders, try place.open(), renderer, rescan: 3600)
        a.start()
        XCTAssertTrue(eventually(timeout: 30) { a.photos.first?.status == .ready })
        let b = try library(folders, try place.open(), renderer, rescan: 3600)
        XCTAssertEqual(b.photos.map(\.id), a.photos.map(\.id), "the catalog is read at start")
        b.start()
        folders.fake("second.jpg", 300, 200)
        // B's next rescan is an hour away: listing the photo within the wait is the notification's doing.
        XCTAssertTrue(eventually(timeout: 30) { a.photos.count == 2 && b.photos.count == 2 && allReadyOf(a, 2) && allReadyOf(b, 2) },
                      "A \(a.photos.map(\.status)), B \(b.photos.map(\.status))")
        XCTAssertEqual(a.photos.map(\.id), b.photos.map(\.id))
        XCTAssertEqual(renderer.builds, 2, "each pyramid built once")
    }

    func testABuildClaimedElsewhereIsLeftToItsHolderAndTakenOverWhenItIsReleased() throws {
        try SQLTestDatabase.forEachEngine { place in
            let name = place.engine.rawValue
            let folders = try Folders(self)
            folders.fake("only.jpg", 600, 400, extra: name)
            let renderer = FakeRenderer()
            let other = try place.open()
            defer { other.close() }
            let library = try library(folders, try place.open(), renderer, rescan: 0.2)
            // Listed and examined, nothing queued yet.
            try library.catalog.scan()
            // Hold the claim of its version, as another replica building it would.
            let photo = try XCTUnwrap(library.photos.first)
            XCTAssertEqual(photo.status, .processing, name)
            let held = try XCTUnwrap(try other.tryLock(SQLLockKey("pyramid-build:" + photo.version, 0)), name)
            library.start()
            // What must not happen (a build) is given four rescans to show; that it does happen
            // once the claim is released is checked below.
            Thread.sleep(forTimeInterval: 0.8)
            XCTAssertEqual(renderer.builds, 0, "a build claimed by another process is not started (\(name))")
            XCTAssertEqual(library.photo(photo.id)?.status, .processing, name)
            // The holder goes away without building: the next rescan queues it, and this one builds.
            held.release()
            XCTAssertTrue(eventually(timeout: 30) { library.photo(photo.id)?.status == .ready }, name)
            XCTAssertEqual(renderer.builds, 1, name)
        }
    }
}

private func allReadyOf(_ library: PhotoLibrary, _ count: Int) -> Bool {
    let photos = library.photos
    return photos.count == count && photos.allSatisfy { $0.status == .ready }
}
