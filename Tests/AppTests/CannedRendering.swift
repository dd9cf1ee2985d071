import Foundation
import POSIX
import Imaging
import Library
import Synchronization
import TestSupport

/// Tiles and thumbnails as canned bytes, and photos as text files `canned WxH`: what the routes
/// need from a renderer, with no libvips anywhere. A tile is the same bytes whether it was
/// rendered on demand or read from a built pyramid, so answers do not depend on the ingest's timing.
final class CannedRendering: PhotoRendering {
    private let calls = Mutex(0)

    /// Tiles, thumbnails, renditions and pyramids made so far.
    var renders: Int { calls.withLock { $0 } }

    /// Writes a canned photo of `width` × `height`.
    static func write(to path: String, width: Int, height: Int) {
        ScratchFile.write("canned \(width)x\(height)\n", to: path)
    }

    /// The bytes of `tile` (nil: the thumbnail) of the photo at `source`.
    static func bytes(_ tile: TileCoordinate?, of source: String) -> [UInt8] {
        Array("canned \(tile.map { "\($0)" } ?? "thumbnail") of \((source as NSString).lastPathComponent)".utf8)
    }

    func probe(_ path: PhotoSource) throws -> PhotoSize {
        guard let text = try? path.text(), text.hasPrefix("canned ") else {
            throw ImagingError.notAnImage("no known format")
        }
        let size = text.dropFirst(7).split(separator: "\n").first?.split(separator: "x").compactMap { Int($0) } ?? []
        guard size.count == 2 else { throw ImagingError.corrupt("bad size") }
        return PhotoSize(width: size[0], height: size[1])
    }

    func buildPyramid(source: PhotoSource, into directory: String) throws -> TilePyramid {
        calls.withLock { $0 += 1 }
        let size = try probe(source)
        let pyramid = TilePyramid(width: size.width, height: size.height, tileSize: 256)
        let staging = directory + ".partial"
        for z in 0...pyramid.maxZoom {
            try FileManager.default.createDirectory(atPath: "\(staging)/\(z)", withIntermediateDirectories: true)
            let grid = pyramid.grid(z)!
            for x in 0..<grid.columns {
                for y in 0..<grid.rows {
                    let tile = TileCoordinate(z: z, x: x, y: y)
                    ScratchFile.write(Self.bytes(tile, of: source.name), to: tilePath(in: staging, tile))
                }
            }
        }
        ScratchFile.write(Self.bytes(nil, of: source.name), to: thumbnailPath(in: staging))
        if rename(staging, directory) != 0 { try? FileManager.default.removeItem(atPath: staging) }
        return pyramid
    }

    func renderTile(source: PhotoSource, tile: TileCoordinate) throws -> [UInt8] {
        calls.withLock { $0 += 1 }
        _ = try probe(source)
        return Self.bytes(tile, of: source.name)
    }

    func thumbnail(source: PhotoSource) throws -> [UInt8] {
        calls.withLock { $0 += 1 }
        _ = try probe(source)
        return Self.bytes(nil, of: source.name)
    }

    func tilePath(in directory: String, _ tile: TileCoordinate) -> String {
        "\(directory)/\(tile.z)/\(tile.x)_\(tile.y).jpg"
    }

    func renderRegion(source: PhotoSource, pyramidDirectory: String?, pyramid: TilePyramid, _ rendition: RegionRendition) throws -> [UInt8] {
        calls.withLock { $0 += 1 }
        _ = try probe(source)
        return Array("canned \(rendition.name)".utf8)
    }
}

extension PhotoSource {
    /// The whole file as text, read through the source (as the library opens it).
    func text() throws -> String {
        let file = try open()
        defer { file.close() }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = try buffer.withUnsafeMutableBytes { try file.read(into: $0) }
            if n == 0 { break }
            bytes += buffer[..<n]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
