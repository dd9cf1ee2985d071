@testable import Access
import Foundation
@testable import App
@testable import HTTP
import Imaging
@testable import Library
import Observability
import XCTest

/// Photos as text files (`WxH` on a line of its own, in the comment of a JPEG that has only a
/// comment and an empty scan, so that an original is sent as one and its segments can be walked,
/// as a link without location needs) whose every tile and thumbnail is `PIXELS …` and whose header says where it
/// was taken: a leak of image bytes or of a position shows in any answer.
final class SecretRenderer: PhotoRendering, Sendable {
    func probe(_ path: PhotoSource) throws -> PhotoSize {
        let text = (try? path.text()) ?? ""
        let lines = text.split(separator: "\n").map { $0.split(separator: "x").compactMap { Int($0) } }
        guard let size = lines.first(where: { $0.count == 2 }) else { throw ImagingError.notAnImage("no known format") }
        return PhotoSize(width: size[0], height: size[1])
    }

    func buildPyramid(source: PhotoSource, into directory: String) throws -> TilePyramid {
        let size = try probe(source)
        let pyramid = TilePyramid(width: size.width, height: size.height, tileSize: 256)
        let staging = directory + ".partial"
        for z in 0...pyramid.maxZoom {
            try FileManager.default.createDirectory(atPath: "\(staging)/\(z)", withIntermediateDirectories: true)
            let grid = pyramid.grid(z)!
            for x in 0..<grid.columns {
                for y in 0..<grid.rows {
                    let tile = TileCoordinate(z: z, x: x, y: y)
                    FileManager.default.createFile(atPath: tilePath(in: staging, tile), contents: Data(try renderTile(source: source, tile: tile)))
                }
            }
        }
        FileManager.default.createFile(atPath: thumbnailPath(in: staging), contents: Data(try thumbnail(source: source)))
        if rename(staging, directory) != 0 { try? FileManager.default.removeItem(atPath: staging) }
        return pyramid
    }

    func renderTile(source: PhotoSource, tile: TileCoordinate) throws -> [UInt8] {
        Array("PIXELS \(tile) of \((source.name as NSString).lastPathComponent)".utf8)
    }

    func thumbnail(source: PhotoSource) throws -> [UInt8] { Array("PIXELS thumbnail of \((source.name as NSString).lastPathComponent)".utf8) }
    func tilePath(in directory: String, _ tile: TileCoordinate) -> String { "\(directory)/\(tile.z)/\(tile.x)_\(tile.y).jpg" }
    func renderRegion(source: PhotoSource, pyramidDirectory: String?, pyramid: TilePyramid, _ rendition: RegionRendition) throws -> [UInt8] {
        Array("PIXELS \(rendition.name) of \((source.name as NSString).lastPathComponent)".utf8)
    }

    func metadata(_ path: PhotoSource) throws -> PhotoMetadata? {
        let size = try probe(path)
        return PhotoMetadata(taken: CaptureDate(rfc3339: "2024-05-01T10:00:00Z", source: .exif)!, width: size.width, height: size.height,
                             fileSize: 10, mediaType: "image/jpeg", location: GeoLocation(latitude: 51.5, longitude: -0.25))
    }
}
