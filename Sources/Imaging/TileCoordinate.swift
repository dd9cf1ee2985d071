/// One tile's address: level `z` (0 fits in one tile, `maxZoom` is native), column `x`, row `y`.
public struct TileCoordinate: Hashable, Sendable, CustomStringConvertible {
    public var z: Int
    public var x: Int
    public var y: Int
    public init(z: Int, x: Int, y: Int) { self.z = z; self.x = x; self.y = y }
    public var description: String { "\(z)/\(x)/\(y)" }
}
