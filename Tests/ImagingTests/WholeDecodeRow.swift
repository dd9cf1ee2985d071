import Foundation
@testable import Imaging

/// A row of tiles as a decode of the whole file makes it: every row above it decoded and
/// skipped, its own encoded as `PhotoRenderer.decodeRow` encodes a band's. What a row cut from a
/// band (at restarts or with a scan index) must equal, byte for byte.
func wholeDecodeRow(z: Int, y: Int, of path: String, settings: RenderSettings) throws -> [TileCoordinate: [UInt8]] {
    let info = try PhotoRenderer.probe(path, settings: settings)
    let pyramid = TilePyramid(width: info.width, height: info.height, tileSize: settings.tileSize)
    let file = try PhotoSource.file(path).open()
    defer { file.close() }
    let rows = try JPEGRows(descriptor: file.rawValue, scale: 1 << (pyramid.maxZoom - z))
    let T = pyramid.tileSize, height = min(T, pyramid.levelSize(z)!.height - y * T)
    let band = RGBPixels(width: rows.width, rows: height)
    try rows.skip(y * T)
    try rows.read(into: band.base, stride: band.stride, rows: height)
    var tiles: [TileCoordinate: [UInt8]] = [:]
    for x in 0..<(rows.width + T - 1) / T {
        tiles[TileCoordinate(z: z, x: x, y: y)] = try band.jpeg(x: x * T, y: 0, width: min(T, rows.width - x * T), height: height,
                                                              quality: settings.jpegQuality)
    }
    return tiles
}
