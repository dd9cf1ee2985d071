import Foundation
import Imaging
@testable import Library
import Observability
import Synchronization
import XCTest
import TestSupport

/// Thumbnails first: every photo's first stage (examined, thumbnail) comes before any pyramid,
/// and what is rendered before the build is taken over by it, not made again.
final class FirstStageTests: XCTestCase {
    /// Says in what order the library asked for thumbnails and pyramids.
    // @unchecked Sendable: `events` is guarded by `lock`.
    final class Recording: PhotoRendering, @unchecked Sendable {
        let inner = FakeRenderer()
        private let lock = NSLock()
        private var _events: [String] = []
        var events: [String] { lock.withLock { _events } }

        func probe(_ path: PhotoSource) throws -> PhotoSize { try inner.probe(path) }
        func buildPyramid(source: PhotoSource, into directory: String) throws -> TilePyramid {
            lock.withLock { _events.append("pyramid") }
            return try inner.buildPyramid(source: source, into: directory)
        }
        func renderTile(source: PhotoSource, tile: TileCoordinate) throws -> [UInt8] { try inner.renderTile(source: source, tile: tile) }
        func thumbnail(source: PhotoSource) throws -> [UInt8] {
            lock.withLock { _events.append("thumbnail") }
            return try inner.thumbnail(source: source)
        }
        func tilePath(in directory: String, _ tile: TileCoordinate) -> String { inner.tilePath(in: directory, tile) }
        func renderRegion(source: PhotoSource, pyramidDirectory: String?, pyramid: TilePyramid, _ rendition: RegionRendition) throws -> [UInt8] {
            try inner.renderRegion(source: source, pyramidDirectory: pyramidDirectory, pyramid: pyramid, rendition)
        }
    }

    func testEveryThumbnailComesBeforeAnyPyramid() throws {
        let folders = try Folders(self)
        for i in 1...12 { folders.fake("photo\(i).jpg", 300 + i, 200) }
        let renderer = Recording()
        let metrics = MetricsRegistry()
        let library = try folders.library(renderer: renderer, metrics: metrics)
        library.refresh()
        XCTAssertTrue(library.waitForIngest(timeoutSeconds: 30))
        let events = renderer.events
        XCTAssertEqual(events.filter { $0 == "thumbnail" }.count, 12, "one thumbnail a photo: \(events)")
        XCTAssertEqual(events.filter { $0 == "pyramid" }.count, 12)
        let lastThumbnail = try XCTUnwrap(events.lastIndex(of: "thumbnail"))
        let firstPyramid = try XCTUnwrap(events.firstIndex(of: "pyramid"))
        // Two ingest threads: the second may still be finishing its last thumbnail.
        XCTAssertLessThanOrEqual(firstPyramid, lastThumbnail + 1, "no pyramid started while thumbnails were queued: \(events)")
        XCTAssertGreaterThanOrEqual(firstPyramid, 11, "thumbnails first: \(events)")
        XCTAssertEqual(library.stages, IngestStages(photos: 12, thumbnails: 12, pyramids: 12, queuedFirst: 0, queuedPyramids: 0))
        XCTAssertNil(library.stages.summary)
        library.collect()
        let text = metrics.render()
        XCTAssertTrue(text.contains(#"photoscroll_ingest_stage_photos{stage="thumbnails"} 12"#), text)
        XCTAssertTrue(text.contains(#"photoscroll_ingest_stage_photos{stage="pyramids"} 12"#), text)
    }

    func testStagesSayHowFarTheIngestIs() {
        let stages = IngestStages(photos: 1000, thumbnails: 400, pyramids: 0, queuedFirst: 600, queuedPyramids: 400)
        XCTAssertEqual(stages.summary, "Ingest: thumbnails 400 of 1000 photos, pyramids 0 of 1000.")
    }

    /// A thumbnail asked for before the first stage got there is made once, for the photo's
    /// examined version, and the first stage and the build take it over.
    func testTilesRenderedOnDemandAreTakenOverByTheBuild() throws {
        let folders = try Folders(self)
        try folders.real("photo1.jpg", 2400, 1600)
        let library = try folders.library()
        // Listed only: nothing examined or built yet.
        _ = try library.catalog.scan(.everything, options: PhotoCatalog.ScanOptions(examines: false))
        let listed = try XCTUnwrap(library.photo(1))
        XCTAssertEqual(listed.status, .processing)
        let thumbnail = try library.image(of: listed, tile: nil)
        let native = TileCoordinate(z: 4, x: 3, y: 2)
        let tile = try library.image(of: listed, tile: native)
        let examined = try XCTUnwrap(library.photo(1))
        XCTAssertNotEqual(examined.version, listed.version, "rendered for the version the photo has once examined")
        let earlyTile = folders.data + "/tiles/.early/\(examined.version)/4/3_2.jpg"
        let earlyThumbnail = folders.data + "/tiles/.early/\(examined.version)/thumbnail.jpg"
        XCTAssertEqual(FileManager.default.contents(atPath: earlyTile).map(Array.init), tile)
        XCTAssertEqual(FileManager.default.contents(atPath: earlyThumbnail).map(Array.init), thumbnail)
        let inode = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: earlyTile)[.systemFileNumber] as? UInt64)

        library.refresh()
        XCTAssertTrue(library.waitForIngest(timeoutSeconds: 60))
        XCTAssertEqual(library.photo(1)?.status, .ready)
        let built = folders.data + "/tiles/\(examined.version)"
        XCTAssertEqual(FileManager.default.contents(atPath: built + "/thumbnail.jpg").map(Array.init), thumbnail, "the thumbnail is not made again")
        let builtInode = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: built + "/4/3_2.jpg")[.systemFileNumber] as? UInt64)
        XCTAssertEqual(builtInode, inode, "the native tile rendered on demand is the pyramid's, moved, not made again")
        XCTAssertFalse(FileManager.default.fileExists(atPath: folders.data + "/tiles/.early/\(examined.version)"))
    }

    /// Counts the renders on demand the real renderer is asked for, by unit, and the builds.
    // @unchecked Sendable: `units` and `builds` are guarded by `lock`.
    final class CountingUnits: PhotoRendering, @unchecked Sendable {
        let inner: VipsPhotoRendering
        private let lock = NSLock()
        private var _units: [RenderUnit] = []
        var units: [RenderUnit] { lock.withLock { _units } }

        init(_ settings: RenderSettings) { inner = VipsPhotoRendering(settings: settings) }
        func probe(_ path: PhotoSource) throws -> PhotoSize { try inner.probe(path) }
        func metadata(_ path: PhotoSource) throws -> PhotoMetadata? { try inner.metadata(path) }
        func buildPyramid(source: PhotoSource, into directory: String) throws -> TilePyramid { try inner.buildPyramid(source: source, into: directory) }
        func buildPyramid(source: PhotoSource, into directory: String, reusing early: String?) throws -> TilePyramid {
            try inner.buildPyramid(source: source, into: directory, reusing: early)
        }
        func renderTile(source: PhotoSource, tile: TileCoordinate) throws -> [UInt8] { try inner.renderTile(source: source, tile: tile) }
        func thumbnail(source: PhotoSource) throws -> [UInt8] { try inner.thumbnail(source: source) }
        func tilePath(in directory: String, _ tile: TileCoordinate) -> String { inner.tilePath(in: directory, tile) }
        func renderRegion(source: PhotoSource, pyramidDirectory: String?, pyramid: TilePyramid, _ rendition: RegionRendition) throws -> [UInt8] {
            try inner.renderRegion(source: source, pyramidDirectory: pyramidDirectory, pyramid: pyramid, rendition)
        }
        func renderUnit(source: PhotoSource, tile: TileCoordinate?) throws -> RenderUnit { try inner.renderUnit(source: source, tile: tile) }
        func render(_ unit: RenderUnit, source: PhotoSource, sink: @escaping TileSink) throws {
            lock.withLock { _units.append(unit) }
            try inner.render(unit, source: source, sink: sink)
        }
    }

    /// A viewer opening a photo nothing was made for asks for every tile of its fitted view at
    /// once: one render makes them all (with the thumbnail), and the build keeps those files.
    func testTheFittedViewAskedAtOnceIsOneRenderKeptByTheBuild() throws {
        let folders = try Folders(self)
        // Wide enough that the level filling a 2880×1800 screen is below native.
        try folders.real("wide.jpg", 5800, 1100)
        let renderer = CountingUnits(RenderSettings())
        let library = try folders.library(renderer: renderer)
        _ = try library.catalog.scan(.everything, options: PhotoCatalog.ScanOptions(examines: false))
        let listed = try XCTUnwrap(library.photo(1))
        let pyramid = TilePyramid(width: 5800, height: 1100)
        let view = PhotoRenderer.viewLevel(of: pyramid)
        XCTAssertLessThan(view, pyramid.maxZoom)
        let grid = try XCTUnwrap(pyramid.grid(view))
        let tiles = (0..<grid.columns).flatMap { x in (0..<grid.rows).map { y in TileCoordinate(z: view, x: x, y: y) } }
        let answered = Mutex<[TileCoordinate: [UInt8]]>([:])
        DispatchQueue.concurrentPerform(iterations: tiles.count) { i in
            if let bytes = try? library.image(of: listed, tile: tiles[i]) { answered.withLock { $0[tiles[i]] = bytes } }
        }
        XCTAssertEqual(answered.withLock { $0.count }, tiles.count, "every tile of the fitted view answered")
        XCTAssertEqual(renderer.units, [.first], "one render for all of them")
        let version = try XCTUnwrap(library.photo(1)).version
        let early = folders.data + "/tiles/.early/\(version)"
        let inodes = try tiles.map { tile in
            try XCTUnwrap(FileManager.default.attributesOfItem(atPath: early + "/\(tile.z)/\(tile.x)_\(tile.y).jpg")[.systemFileNumber] as? UInt64)
        }

        library.refresh()
        XCTAssertTrue(library.waitForIngest(timeoutSeconds: 60))
        XCTAssertEqual(library.photo(1)?.status, .ready)
        XCTAssertEqual(renderer.units, [.first], "the first stage found its work done")
        let built = folders.data + "/tiles/\(version)"
        for (tile, inode) in zip(tiles, inodes) {
            let path = built + "/\(tile.z)/\(tile.x)_\(tile.y).jpg"
            XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? UInt64, inode,
                           "tile \(tile) is the one rendered on demand, not made again")
            XCTAssertEqual(FileManager.default.contents(atPath: path).map(Array.init), answered.withLock { $0[tile] })
        }
    }

    /// Reads headers slowly and counts them.
    // @unchecked Sendable: `probes` is guarded by `lock`.
    final class SlowProbes: PhotoRendering, @unchecked Sendable {
        let inner = FakeRenderer()
        private let lock = NSLock()
        private var _probes = 0
        var probes: Int { lock.withLock { _probes } }

        func probe(_ path: PhotoSource) throws -> PhotoSize {
            lock.withLock { _probes += 1 }
            Thread.sleep(forTimeInterval: 0.1)
            return try inner.probe(path)
        }
        func buildPyramid(source: PhotoSource, into directory: String) throws -> TilePyramid { try inner.buildPyramid(source: source, into: directory) }
        func renderTile(source: PhotoSource, tile: TileCoordinate) throws -> [UInt8] { try inner.renderTile(source: source, tile: tile) }
        func thumbnail(source: PhotoSource) throws -> [UInt8] { try inner.thumbnail(source: source) }
        func tilePath(in directory: String, _ tile: TileCoordinate) -> String { inner.tilePath(in: directory, tile) }
        func renderRegion(source: PhotoSource, pyramidDirectory: String?, pyramid: TilePyramid, _ rendition: RegionRendition) throws -> [UInt8] {
            try inner.renderRegion(source: source, pyramidDirectory: pyramidDirectory, pyramid: pyramid, rendition)
        }
    }

    /// Requests that meet a photo not examined yet (a viewer's tiles asked at once, with the
    /// ingest's first stage) share one examination: the file is hashed and its header read once.
    func testConcurrentFirstRequestsExamineThePhotoOnce() throws {
        let folders = try Folders(self)
        folders.fake("photo1.jpg", 2000, 1000)
        let renderer = SlowProbes()
        let library = try folders.library(renderer: renderer)
        _ = try library.catalog.scan(.everything, options: PhotoCatalog.ScanOptions(examines: false))
        let listed = try XCTUnwrap(library.photo(1))
        XCTAssertEqual(library.catalog.entry(1)?.hashed, false)
        let before = renderer.probes
        let versions = Mutex<Set<String>>([])
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            if let photo = library.catalog.examine(listed.id) { versions.withLock { _ = $0.insert(photo.version) } }
        }
        XCTAssertEqual(renderer.probes - before, 1, "one examination for all of them")
        XCTAssertEqual(versions.withLock { $0 }, [try XCTUnwrap(library.photo(1)).version], "every caller got the examined photo")
        XCTAssertEqual(library.catalog.entry(1)?.hashed, true)
    }
    /// A tile asked while its photo's pyramid is being built is the build's: the request waits
    /// for the build to write it instead of rendering it too.
    func testATileAskedWhileThePyramidIsBuiltIsTheBuildsNotMadeTwice() throws {
        let folders = try Folders(self)
        try folders.real("photo1.jpg", 1100, 800)
        let renderer = GatedBuildRenderer()
        let library = try folders.library(renderer: renderer)
        _ = try library.catalog.scan(.everything, options: PhotoCatalog.ScanOptions(examines: false))
        let photo = try XCTUnwrap(library.catalog.examine(1))
        let built = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            library.buildPyramid(photo)
            built.signal()
        }
        renderer.began.wait()
        // Native, so the first stage's levels do not hold it.
        let tile = TileCoordinate(z: 3, x: 2, y: 1)
        let answer = Mutex<[UInt8]?>(nil)
        let answered = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            let bytes = try? library.image(of: photo, tile: tile)
            answer.withLock { $0 = bytes }
            answered.signal()
        }
        // The request waits for the build (or, before, rendered on its own and answered).
        eventually(timeout: 30) { library.work.waiters > 0 || answer.withLock({ $0 != nil }) }
        renderer.go.signal()
        XCTAssertEqual(built.wait(timeout: .now() + 60), .success)
        XCTAssertEqual(answered.wait(timeout: .now() + 60), .success)
        XCTAssertEqual(renderer.units, [], "nothing rendered on demand: the build made the tile")
        let path = folders.data + "/tiles/\(photo.version)/3/2_1.jpg"
        XCTAssertEqual(answer.withLock { $0 }, FileManager.default.contents(atPath: path).map(Array.init))
        XCTAssertEqual(library.photo(1)?.status, .ready)
    }
    /// The real renderer, whose renders on demand wait at a gate before they start and again
    /// once they handed `hold` over.
    // @unchecked Sendable: the semaphores are thread-safe; `units` is guarded by `lock`.
    final class GatedRender: PhotoRendering, @unchecked Sendable {
        let inner = VipsPhotoRendering(settings: RenderSettings())
        let hold: TileCoordinate
        let start = DispatchSemaphore(value: 0), held = DispatchSemaphore(value: 0), go = DispatchSemaphore(value: 0)
        private let lock = NSLock()
        private var _units: [RenderUnit] = []
        var units: [RenderUnit] { lock.withLock { _units } }

        init(hold: TileCoordinate) { self.hold = hold }
        func probe(_ path: PhotoSource) throws -> PhotoSize { try inner.probe(path) }
        func buildPyramid(source: PhotoSource, into directory: String) throws -> TilePyramid { try inner.buildPyramid(source: source, into: directory) }
        func renderTile(source: PhotoSource, tile: TileCoordinate) throws -> [UInt8] { try inner.renderTile(source: source, tile: tile) }
        func thumbnail(source: PhotoSource) throws -> [UInt8] { try inner.thumbnail(source: source) }
        func tilePath(in directory: String, _ tile: TileCoordinate) -> String { inner.tilePath(in: directory, tile) }
        func renderRegion(source: PhotoSource, pyramidDirectory: String?, pyramid: TilePyramid, _ rendition: RegionRendition) throws -> [UInt8] {
            try inner.renderRegion(source: source, pyramidDirectory: pyramidDirectory, pyramid: pyramid, rendition)
        }
        func renderUnit(source: PhotoSource, tile: TileCoordinate?) throws -> RenderUnit { try inner.renderUnit(source: source, tile: tile) }
        func render(_ unit: RenderUnit, source: PhotoSource, sink: @escaping TileSink) throws {
            lock.withLock { _units.append(unit) }
            start.wait()
            let hold = hold, held = held, go = go
            try inner.render(unit, source: source) { tile, bytes in
                try sink(tile, bytes)
                if tile == hold {
                    held.signal()
                    go.wait()
                }
            }
        }
    }

    /// A request for a tile of a render in flight is answered once that tile is written, not
    /// when the whole render ends (the fitted view goes out while the levels below and the
    /// thumbnail are still being made).
    func testATileOfARenderInFlightIsAnsweredOnceWritten() throws {
        let folders = try Folders(self)
        try folders.real("photo1.jpg", 1100, 800)
        // Level 2 (550×400) is the first stage's top here.
        let tile = TileCoordinate(z: 2, x: 1, y: 0)
        let renderer = GatedRender(hold: tile)
        let library = try folders.library(renderer: renderer)
        _ = try library.catalog.scan(.everything, options: PhotoCatalog.ScanOptions(examines: false))
        let photo = try XCTUnwrap(library.catalog.examine(1))
        let thumbnailDone = DispatchSemaphore(value: 0), tileDone = DispatchSemaphore(value: 0)
        let answer = Mutex<[UInt8]?>(nil)
        DispatchQueue.global().async {
            _ = try? library.image(of: photo, tile: nil)
            thumbnailDone.signal()
        }
        eventually { !renderer.units.isEmpty }
        XCTAssertEqual(renderer.units, [.first])
        DispatchQueue.global().async {
            let bytes = try? library.image(of: photo, tile: tile)
            answer.withLock { $0 = bytes }
            tileDone.signal()
        }
        // Asked before the render made it (the request waits for the render in flight).
        XCTAssertTrue(eventually { library.work.waiters > 0 }, "the request waits for the render in flight")
        renderer.start.signal()
        XCTAssertEqual(renderer.held.wait(timeout: .now() + 30), .success)
        let answered = tileDone.wait(timeout: .now() + 30)
        renderer.go.signal()
        XCTAssertEqual(answered, .success, "answered while the rest of the render was still to come")
        XCTAssertEqual(thumbnailDone.wait(timeout: .now() + 30), .success)
        XCTAssertEqual(renderer.units, [.first], "one render")
        let early = folders.data + "/tiles/.early/\(photo.version)/2/1_0.jpg"
        XCTAssertNotNil(answer.withLock { $0 })
        XCTAssertEqual(answer.withLock { $0 }, FileManager.default.contents(atPath: early).map(Array.init))
    }
}
