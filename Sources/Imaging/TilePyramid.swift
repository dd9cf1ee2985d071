/// The geometry of a photo's tile pyramid (DESIGN.md, "The tile pyramid").
///
/// `maxZoom = max(0, ceil(log2(max(W, H) / T)))`; level z is the photo scaled by `2^(z − maxZoom)`,
/// `ceil(W·s) × ceil(H·s)` pixels, cut into T-pixel tiles from the top left; edge tiles are smaller.
public struct TilePyramid: Hashable, Sendable {
    /// Width and height after EXIF orientation.
    public let width: Int
    public let height: Int
    public let tileSize: Int
    public let maxZoom: Int

    public init(width: Int, height: Int, tileSize: Int = 256) {
        precondition(width > 0 && height > 0 && tileSize > 0)
        self.width = width
        self.height = height
        self.tileSize = tileSize
        var zoom = 0
        // Smallest z with max(W, H) <= T·2^z, computed in integers so no rounding can creep in.
        while (tileSize << zoom) < max(width, height) { zoom += 1 }
        self.maxZoom = zoom
    }

    /// Size of level z in pixels, or nil when z is outside 0…maxZoom.
    public func levelSize(_ z: Int) -> (width: Int, height: Int)? {
        guard z >= 0 && z <= maxZoom else { return nil }
        let shift = maxZoom - z
        // ceil(W / 2^shift)
        return ((width + (1 << shift) - 1) >> shift, (height + (1 << shift) - 1) >> shift)
    }

    /// Columns and rows of level z, or nil when z is outside the pyramid.
    public func grid(_ z: Int) -> (columns: Int, rows: Int)? {
        guard let size = levelSize(z) else { return nil }
        return ((size.width + tileSize - 1) / tileSize, (size.height + tileSize - 1) / tileSize)
    }

    /// Whether the tile exists in this pyramid.
    public func contains(_ tile: TileCoordinate) -> Bool {
        guard let grid = grid(tile.z) else { return false }
        return tile.x >= 0 && tile.y >= 0 && tile.x < grid.columns && tile.y < grid.rows
    }

    /// The level pixels the tile covers, or nil when it is outside the pyramid.
    public func rect(_ tile: TileCoordinate) -> PixelRect? {
        guard contains(tile), let size = levelSize(tile.z) else { return nil }
        let x = tile.x * tileSize, y = tile.y * tileSize
        return PixelRect(x: x, y: y, width: min(tileSize, size.width - x), height: min(tileSize, size.height - y))
    }

    /// DeepZoom's level for our level z: DZI counts from a 1×1 level, so ours are shifted by
    /// `ceil(log2(max(W, H))) − maxZoom`.
    public var deepZoomShift: Int {
        var levels = 0
        while (1 << levels) < max(width, height) { levels += 1 }
        return levels - maxZoom
    }

    /// Every tile of the pyramid, level by level.
    public var tileCount: Int {
        (0...maxZoom).reduce(0) { total, z in let g = grid(z)!; return total + g.columns * g.rows }
    }
}
