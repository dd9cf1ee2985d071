import Foundation
import Imaging
@testable import Library
import Observability
import Synchronization
import XCTest
import TestSupport

final class BuildFaultTests: XCTestCase {
    static let diskFull = ImagingError.vips("dzsave wrote levels [2, 3, 4, 5, 6], expected 7 levels")

    /// A write that failed without libvips saying so leaves a level missing; the file itself
    /// decodes, so the photo stays `processing`, nothing is saved, and the build is retried.
    func testAFailedWriteIsRetriedWithBackoffAndNeverSavedAsTheFailure() throws {
        let folders = try Folders(self)
        folders.fake("photo1.jpg", 3000, 2000)
        let store = MemoryCatalogStore()
        let renderer = FaultyBuilds(failing: 2, with: Self.diskFull)
        let logs = MemoryLogSink()
        let library = try folders.library(renderer: renderer, store: store, retryDelay: 0.1,
                                          logger: Logger(label: "library", level: .info, sink: logs))
        library.refresh()
        XCTAssertTrue(eventually { renderer.failures.withLock { $0 } == 1 })
        XCTAssertEqual(library.photo(1)?.status, .processing, "a write failure does not fail the photo")
        XCTAssertNil(try store.entries().first?.error, "nor is it saved")
        // Retried after 0.1 s, then 0.2 s; the third build succeeds.
        XCTAssertTrue(eventually { library.photo(1)?.status == .ready }, "status \(String(describing: library.photo(1)?.status))")
        XCTAssertEqual(renderer.builds, 1)
        XCTAssertNil(try store.entries().first?.error)
        let retries = logs.all.filter { $0.message.hasPrefix("pyramid build failed, not for a fault of the file") }
        XCTAssertEqual(retries.map { $0.metadata.first { $0.0 == "attempt" }?.1 }, ["1", "2"])
    }

    /// The disk stays full until the server moves: after a restart on a good disk the build works.
    func testAfterARestartTheBuildIsTriedAgain() throws {
        let folders = try Folders(self)
        folders.fake("photo1.jpg", 3000, 2000)
        let store = MemoryCatalogStore()
        let full = FaultyBuilds(failing: Int.max, with: Self.diskFull)
        let first = try folders.library(renderer: full, store: store, retryDelay: 3600)
        first.refresh()
        XCTAssertTrue(eventually { full.failures.withLock { $0 } == Int.max && first.retries.attempts(first.photo(1)?.version ?? "") == 1 })
        first.stop()
        first.waitForIngest(timeoutSeconds: 60)
        XCTAssertEqual(first.photo(1)?.status, .processing)

        let renderer = FakeRenderer()
        let second = try folders.library(renderer: renderer, store: store)
        XCTAssertEqual(second.photo(1)?.status, .processing, "nothing of the failure was kept")
        second.refresh()
        XCTAssertTrue(second.waitForIngest(timeoutSeconds: 60))
        XCTAssertEqual(second.photo(1)?.status, .ready)
    }

    /// A file rewritten while its pyramid was built fails the read ("Premature end of input
    /// file"); the photo is not failed, and its new version is built.
    func testAFileChangedDuringTheBuildIsBuiltAgainInItsNewVersion() throws {
        let folders = try Folders(self)
        folders.fake("photo1.jpg", 3000, 2000)
        let photo = folders.photos + "/photo1.jpg"
        let rewrite: @Sendable () -> Void = { Folders.fake(at: photo, 3000, 2000, extra: "edited in place") }
        let renderer = FaultyBuilds(failing: 1, with: .corrupt("VipsJpeg: Premature end of input file"), during: rewrite)
        let store = MemoryCatalogStore()
        let library = try folders.library(renderer: renderer, store: store)
        library.start()
        let firstVersion = library.photo(1)?.version
        XCTAssertTrue(eventually { library.photo(1)?.status == .ready && library.photo(1)?.version != firstVersion },
                      "status \(String(describing: library.photo(1)?.status))")
        XCTAssertNil(try store.entries().first?.error)
        XCTAssertNotEqual(library.photo(1)?.status, .failed)
    }

    /// A truly broken file is still the photo's failure, saved for the next start.
    func testABrokenFileIsStillFailedAndSaved() throws {
        let folders = try Folders(self)
        folders.fake("photo1.jpg", 3000, 2000)
        final class Broken: PhotoRendering, Sendable {
            let inner = FakeRenderer()
            func probe(_ path: PhotoSource) throws -> PhotoSize { try inner.probe(path) }
            func buildPyramid(source: PhotoSource, into directory: String) throws -> TilePyramid { throw ImagingError.corrupt("bad Huffman table") }
            func renderTile(source: PhotoSource, tile: TileCoordinate) throws -> [UInt8] { throw ImagingError.corrupt("bad Huffman table") }
            func thumbnail(source: PhotoSource) throws -> [UInt8] { throw ImagingError.corrupt("bad Huffman table") }
            func tilePath(in directory: String, _ tile: TileCoordinate) -> String { inner.tilePath(in: directory, tile) }
            func renderRegion(source: PhotoSource, pyramidDirectory: String?, pyramid: TilePyramid, _ rendition: RegionRendition) throws -> [UInt8] {
                throw ImagingError.corrupt("bad Huffman table")
            }
        }
        let store = MemoryCatalogStore()
        let library = try folders.library(renderer: Broken(), store: store)
        library.refresh()
        XCTAssertTrue(library.waitForIngest(timeoutSeconds: 60))
        XCTAssertEqual(library.photo(1)?.status, .failed)
        XCTAssertTrue(try store.entries().first?.error?.contains("Huffman") ?? false)
    }

    /// The real thing: libvips writing a pyramid while files may not grow past 4 KiB (as on a
    /// full disk). The photo is not failed; once writes work again the retry builds it.
    func testARealBuildOnAFullDiskIsRetriedNotFailed() throws {
        let folders = try Folders(self)
        try folders.real("photo1.jpg", 2000, 1500, seed: 5)
        let store = MemoryCatalogStore()
        let library = try folders.library(store: store, retryDelay: 3600)
        _ = try library.catalog.scan()
        let photo = try XCTUnwrap(library.photo(1))

        let previousHandler = signal(SIGXFSZ, SIG_IGN)
        var previous = rlimit()
        getrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &previous)
        var limit = rlimit(rlim_cur: 4096, rlim_max: previous.rlim_max)
        setrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &limit)
        let error = library.buildPyramid(photo)
        setrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &previous)
        signal(SIGXFSZ, previousHandler)

        XCTAssertNotNil(error, "the build cannot succeed with 4 KiB files")
        XCTAssertEqual(library.photo(1)?.status, .processing, "failed with: \(error ?? "")")
        XCTAssertNil(try store.entries().first?.error)
        XCTAssertEqual(library.retries.attempts(photo.version), 1)
        XCTAssertNil(library.buildPyramid(photo))
        XCTAssertEqual(library.photo(1)?.status, .ready)
    }

    /// Staging folders a crashed build left are removed at the next start, unless a build may
    /// be writing into them (another process holds the build lock).
    func testStagingFoldersLeftByACrashAreRemovedAtStart() throws {
        let folders = try Folders(self)
        let tiles = folders.data + "/tiles"
        let leftover = tiles + "/.0123456789ab.partial-99999-42"
        try FileManager.default.createDirectory(atPath: leftover + "/3", withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: leftover + "/3/0_0.jpg", contents: Data("half".utf8))

        // Another process building: its lock is held shared, so the folder stays.
        let other = try XCTUnwrap(BuildLock.shared(in: tiles))
        _ = try folders.library(renderer: FakeRenderer())
        XCTAssertTrue(FileManager.default.fileExists(atPath: leftover))
        BuildLock.release(other)

        _ = try folders.library(renderer: FakeRenderer())
        XCTAssertFalse(FileManager.default.fileExists(atPath: leftover))
        XCTAssertTrue(FileManager.default.fileExists(atPath: tiles))
    }
}
