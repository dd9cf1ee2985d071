import Imaging

/// The libvips boundary as the library needs it. The real one is `VipsPhotoRendering`;
/// tests count or fake renders through their own.
public protocol PhotoRendering: Sendable {
    /// Reads the header only: size after EXIF orientation, or an `ImagingError`.
    func probe(_ source: PhotoSource) throws -> PhotoSize
    /// Writes `directory/{z}/{x}_{y}.jpg` and `directory/thumbnail.jpg`, atomically.
    func buildPyramid(source: PhotoSource, into directory: String) throws -> TilePyramid
    /// One tile rendered straight from the source.
    func renderTile(source: PhotoSource, tile: TileCoordinate) throws -> [UInt8]
    /// The square grid thumbnail rendered straight from the source.
    func thumbnail(source: PhotoSource) throws -> [UInt8]
    /// Where a built pyramid keeps a tile.
    func tilePath(in directory: String, _ tile: TileCoordinate) -> String
    /// A region of the photo scaled, turned and encoded: cut from the built pyramid in
    /// `pyramidDirectory` when there is one, else rendered from the source.
    func renderRegion(source: PhotoSource, pyramidDirectory: String?, pyramid: TilePyramid, _ rendition: RegionRendition) throws -> [UInt8]
    /// The same, ended early when `stop` fires (`ImagingError.cancelled`, `.tookTooLong`).
    func renderRegion(source: PhotoSource, pyramidDirectory: String?, pyramid: TilePyramid, _ rendition: RegionRendition,
                      stop: RenderStop?) throws -> [UInt8]
    /// What the header says about when, how and where the photo was taken; nil from renderers
    /// that cannot tell (the file's modification time stands in for the date then).
    func metadata(_ source: PhotoSource) throws -> PhotoMetadata?
    /// What one render on demand of `tile` (nil: the thumbnail) makes, so that requests for any
    /// part of it wait for that one render.
    func renderUnit(source: PhotoSource, tile: TileCoordinate?) throws -> RenderUnit
    /// Renders a unit, handing every tile (and thumbnail) to `sink` as it is made.
    func render(_ unit: RenderUnit, source: PhotoSource, sink: @escaping TileSink) throws
    /// A tile read from the photo itself when it is a pyramid stored in its file (a pyramidal
    /// TIFF served in place); nil for every other photo, whose tiles are built or rendered.
    func storedTile(source: PhotoSource, tile: TileCoordinate) throws -> [UInt8]?
    /// `buildPyramid`, taking over what was rendered before the build into `early` (moved into
    /// the pyramid, not made again).
    func buildPyramid(source: PhotoSource, into directory: String, reusing early: String?) throws -> TilePyramid
    /// The same, telling `watcher` about its tiles as they are made.
    func buildPyramid(source: PhotoSource, into directory: String, reusing early: String?, watcher: BuildWatcher) throws -> TilePyramid
    /// A region cut from tiles of levels up to `top` wherever `tilePath` finds (or makes) them;
    /// nil when it needs a higher level or too many tiles.
    func renderRegion(pyramid: TilePyramid, levelsUpTo top: Int, tilePath: (TileCoordinate) throws -> String,
                      _ rendition: RegionRendition, stop: RenderStop?) throws -> [UInt8]?
    /// Whether the render of the row of tiles holding `tile` costs a fraction of a second
    /// whatever the photo's size (a band cut out at the JPEG's restarts), so that a request need
    /// not wait for a build to reach it.
    func rendersRowAlone(source: PhotoSource, tile: TileCoordinate) throws -> Bool
}

extension PhotoRendering {
    public func metadata(_ source: PhotoSource) throws -> PhotoMetadata? { nil }

    public func storedTile(source: PhotoSource, tile: TileCoordinate) throws -> [UInt8]? { nil }

    public func renderRegion(pyramid: TilePyramid, levelsUpTo top: Int, tilePath: (TileCoordinate) throws -> String,
                             _ rendition: RegionRendition, stop: RenderStop?) throws -> [UInt8]? { nil }

    public func rendersRowAlone(source: PhotoSource, tile: TileCoordinate) throws -> Bool { false }

    /// For renderers that cannot be stopped midway: checked before and after.
    public func renderRegion(source: PhotoSource, pyramidDirectory: String?, pyramid: TilePyramid, _ rendition: RegionRendition,
                             stop: RenderStop?) throws -> [UInt8] {
        try (stop ?? RenderStop()).guarding {
            try renderRegion(source: source, pyramidDirectory: pyramidDirectory, pyramid: pyramid, rendition)
        }
    }

    public func renderUnit(source: PhotoSource, tile: TileCoordinate?) throws -> RenderUnit { tile.map { .tile($0) } ?? .first }

    public func render(_ unit: RenderUnit, source: PhotoSource, sink: @escaping TileSink) throws {
        switch unit {
        case .tile(let tile): try sink(tile, try renderTile(source: source, tile: tile))
        case .first: try sink(nil, try thumbnail(source: source))
        case .levels, .row: throw ImagingError.vips("this renderer renders single tiles only")
        }
    }

    public func buildPyramid(source: PhotoSource, into directory: String, reusing early: String?) throws -> TilePyramid {
        try buildPyramid(source: source, into: directory)
    }

    /// For renderers that say nothing of their tiles: requests render on demand during the build.
    public func buildPyramid(source: PhotoSource, into directory: String, reusing early: String?, watcher: BuildWatcher) throws -> TilePyramid {
        watcher.started(directory, nil)
        return try buildPyramid(source: source, into: directory, reusing: early)
    }

    /// Where a built pyramid keeps its thumbnail.
    public func thumbnailPath(in directory: String) -> String { directory + "/thumbnail.jpg" }
}
