import Foundation
import Imaging
import Library

/// The real renderer, counting renders on demand (by unit) and renditions read from the photo
/// itself, whose pyramid build waits at a gate once it began: a test asks for tiles while the
/// build is held, then lets it go on.
// @unchecked Sendable: the counts are guarded by `lock`; the semaphores are thread-safe.
final class GatedBuildRenderer: PhotoRendering, @unchecked Sendable {
    let inner = VipsPhotoRendering(settings: RenderSettings())
    /// Signalled when a build begins; the build then waits for `go`.
    let began = DispatchSemaphore(value: 0), go = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var _units: [RenderUnit] = []
    private var _sourceRegions = 0
    var units: [RenderUnit] { lock.withLock { _units } }
    var sourceRegions: Int { lock.withLock { _sourceRegions } }

    func probe(_ path: PhotoSource) throws -> PhotoSize { try inner.probe(path) }
    func buildPyramid(source: PhotoSource, into directory: String) throws -> TilePyramid { try inner.buildPyramid(source: source, into: directory) }
    func buildPyramid(source: PhotoSource, into directory: String, reusing early: String?, watcher: BuildWatcher) throws -> TilePyramid {
        began.signal()
        go.wait()
        return try inner.buildPyramid(source: source, into: directory, reusing: early, watcher: watcher)
    }
    func renderTile(source: PhotoSource, tile: TileCoordinate) throws -> [UInt8] { try inner.renderTile(source: source, tile: tile) }
    func thumbnail(source: PhotoSource) throws -> [UInt8] { try inner.thumbnail(source: source) }
    func tilePath(in directory: String, _ tile: TileCoordinate) -> String { inner.tilePath(in: directory, tile) }
    func renderRegion(source: PhotoSource, pyramidDirectory: String?, pyramid: TilePyramid, _ rendition: RegionRendition) throws -> [UInt8] {
        if pyramidDirectory == nil { lock.withLock { _sourceRegions += 1 } }
        return try inner.renderRegion(source: source, pyramidDirectory: pyramidDirectory, pyramid: pyramid, rendition)
    }
    func renderRegion(pyramid: TilePyramid, levelsUpTo top: Int, tilePath: (TileCoordinate) throws -> String,
                      _ rendition: RegionRendition, stop: RenderStop?) throws -> [UInt8]? {
        try inner.renderRegion(pyramid: pyramid, levelsUpTo: top, tilePath: tilePath, rendition, stop: stop)
    }
    func rendersRowAlone(source: PhotoSource, tile: TileCoordinate) throws -> Bool { try inner.rendersRowAlone(source: source, tile: tile) }
    func renderUnit(source: PhotoSource, tile: TileCoordinate?) throws -> RenderUnit { try inner.renderUnit(source: source, tile: tile) }
    func render(_ unit: RenderUnit, source: PhotoSource, sink: @escaping TileSink) throws {
        lock.withLock { _units.append(unit) }
        try inner.render(unit, source: source, sink: sink)
    }
}
