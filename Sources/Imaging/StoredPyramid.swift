import TIFFLayout

/// A pyramidal TIFF served in place: which of its levels are levels of the photo's pyramid as
/// it is served (same size, same tiles), and which stored level each other level is made from.
public struct StoredPyramid: Sendable, Hashable {
    public let layout: TIFFPyramidLayout
    public let pyramid: TilePyramid

    /// The match of `layout` with the pyramid of `tileSize`-pixel tiles, or nil when the file is
    /// not one to serve in place: its full-size tiles are not the pyramid's, it is turned by its
    /// Orientation, or its samples are not 8-bit grey or colour without alpha. Such a file is
    /// built as any other photo.
    public static func match(_ layout: TIFFPyramidLayout, tileSize: Int) -> StoredPyramid? {
        guard let top = layout.levels.first, top.tileWidth == tileSize, top.tileHeight == tileSize else { return nil }
        for level in layout.levels {
            guard level.orientation == 1, level.bitsPerSample == 8, !level.hasExtraSamples, !level.separatePlanes,
                  level.samplesPerPixel == 1 || level.samplesPerPixel == 3,
                  [1, 2, 6].contains(level.photometric),
                  TIFFLevel.Compression(rawValue: level.compression) != nil else { return nil }
        }
        return StoredPyramid(layout: layout, pyramid: TilePyramid(width: top.width, height: top.height, tileSize: tileSize))
    }

    /// The stored level that is exactly level `z`, tiles included, or nil.
    public func stored(_ z: Int) -> TIFFLevel? {
        guard let size = pyramid.levelSize(z) else { return nil }
        return layout.levels.first {
            $0.width == size.width && $0.height == size.height && $0.tileWidth == pyramid.tileSize && $0.tileHeight == pyramid.tileSize
        }
    }

    /// The smallest stored level at least as large as level `z`: what a level not stored is made
    /// from (the full-size one at worst).
    public func nearest(_ z: Int) -> TIFFLevel {
        let size = pyramid.levelSize(z) ?? (pyramid.width, pyramid.height)
        return layout.levels.last { $0.width >= size.width && $0.height >= size.height } ?? layout.levels[0]
    }

    /// Whether tile `tile` of a stored level can be sent as the file's own bytes: a whole tile (the
    /// file pads edge tiles, which are served cropped), JPEG-compressed as YCbCr colour or grey
    /// (what a browser decodes a bare JPEG as), with no profile to convert from.
    public func sendsBytes(of level: TIFFLevel, _ tile: TileCoordinate) -> Bool {
        guard level.compression == TIFFLevel.Compression.jpeg.rawValue, !level.hasProfile,
              (level.photometric == 6 && level.samplesPerPixel == 3) || (level.photometric == 1 && level.samplesPerPixel == 1) else {
            return false
        }
        return (tile.x + 1) * pyramid.tileSize <= level.width && (tile.y + 1) * pyramid.tileSize <= level.height
    }
}
