/// What one render on demand makes (`PhotoRenderer.renderUnit`).
public enum RenderUnit: Hashable, Sendable {
    /// The thumbnail, and for a JPEG read straight every tile of the levels its first decode gives.
    case first
    /// Every tile of levels `top`…0.
    case levels(top: Int)
    /// Every tile of one row of a level.
    case row(z: Int, y: Int)
    /// One tile.
    case tile(TileCoordinate)
}
