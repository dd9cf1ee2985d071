import Foundation
import Imaging
import POSIX

/// The real renderer: PhotoRenderer (libvips) with fixed settings.
public struct VipsPhotoRendering: PhotoRendering {
    public let settings: RenderSettings
    /// Threads that encode a pyramid's tiles beside the one that decodes it.
    public let buildHelpers: Int

    public init(settings: RenderSettings, buildHelpers: Int = ProcessInfo.processInfo.activeProcessorCount - 1) {
        self.settings = settings
        self.buildHelpers = max(0, buildHelpers)
    }

    public func probe(_ source: PhotoSource) throws -> PhotoSize {
        let info = try PhotoRenderer.probe(source, settings: settings)
        return PhotoSize(width: info.width, height: info.height)
    }

    public func buildPyramid(source: PhotoSource, into directory: String) throws -> TilePyramid {
        try PhotoRenderer.buildPyramid(source: source, into: directory, settings: settings, helpers: buildHelpers)
    }

    public func buildPyramid(source: PhotoSource, into directory: String, reusing early: String?) throws -> TilePyramid {
        try PhotoRenderer.buildPyramid(source: source, into: directory, settings: settings, reusing: early, helpers: buildHelpers)
    }

    public func buildPyramid(source: PhotoSource, into directory: String, reusing early: String?, watcher: BuildWatcher) throws -> TilePyramid {
        try PhotoRenderer.buildPyramid(source: source, into: directory, settings: settings, reusing: early, helpers: buildHelpers,
                                       watcher: watcher)
    }

    public func renderUnit(source: PhotoSource, tile: TileCoordinate?) throws -> RenderUnit {
        try PhotoRenderer.renderUnit(source: source, tile: tile, settings: settings)
    }

    public func render(_ unit: RenderUnit, source: PhotoSource, sink: @escaping TileSink) throws {
        try PhotoRenderer.render(unit, source: source, settings: settings, sink: sink)
    }

    public func renderTile(source: PhotoSource, tile: TileCoordinate) throws -> [UInt8] {
        try PhotoRenderer.renderTile(source: source, tile: tile, settings: settings)
    }

    public func storedTile(source: PhotoSource, tile: TileCoordinate) throws -> [UInt8]? {
        try PhotoRenderer.storedTile(source: source, tile: tile, settings: settings)
    }

    public func thumbnail(source: PhotoSource) throws -> [UInt8] {
        try PhotoRenderer.thumbnail(source: source, settings: settings)
    }

    public func renderRegion(pyramid: TilePyramid, levelsUpTo top: Int, tilePath: (TileCoordinate) throws -> String,
                             _ rendition: RegionRendition, stop: RenderStop?) throws -> [UInt8]? {
        try PhotoRenderer.renderRegion(pyramid: pyramid, levelsUpTo: top, tilePath: tilePath, rendition, settings: settings, stop: stop)
    }

    public func rendersRowAlone(source: PhotoSource, tile: TileCoordinate) throws -> Bool {
        try PhotoRenderer.rendersRowAlone(source: source, tile: tile, settings: settings)
    }

    public func metadata(_ source: PhotoSource) throws -> PhotoMetadata? {
        try PhotoRenderer.metadata(source, settings: settings)
    }

    public func tilePath(in directory: String, _ tile: TileCoordinate) -> String {
        PhotoRenderer.tilePath(in: directory, tile)
    }

    public func renderRegion(source: PhotoSource, pyramidDirectory: String?, pyramid: TilePyramid,
                             _ rendition: RegionRendition) throws -> [UInt8] {
        try renderRegion(source: source, pyramidDirectory: pyramidDirectory, pyramid: pyramid, rendition, stop: nil)
    }

    public func renderRegion(source: PhotoSource, pyramidDirectory: String?, pyramid: TilePyramid,
                             _ rendition: RegionRendition, stop: RenderStop?) throws -> [UInt8] {
        // A stored pyramid's folder holds no tiles: its regions are cut from the photo's own levels.
        if let pyramidDirectory, !FileSystem.exists(pyramidDirectory + "/" + PhotoRenderer.storedMarker),
           let bytes = try PhotoRenderer.renderRegion(pyramid: pyramid, directory: pyramidDirectory, rendition, settings: settings,
                                                      stop: stop) {
            return bytes
        }
        return try PhotoRenderer.renderRegion(source: source, rendition, settings: settings, stop: stop)
    }
}
