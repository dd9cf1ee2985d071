@testable import App
import Foundation
import HTTP
import Imaging
@testable import Library
import Observability
import POSIX
import TestSupport
import XCTest

/// A renderer for thousands of photos without libvips: a "photo" is a text file `WxH`.
final class TextRenderer: PhotoRendering, Sendable {
    func probe(_ path: PhotoSource) throws -> PhotoSize {
        let text = (try? path.text()) ?? ""
        let size = text.split(separator: "\n").first?.split(separator: "x").compactMap { Int($0) } ?? []
        guard size.count == 2 else { throw ImagingError.notAnImage("no known format") }
        return PhotoSize(width: size[0], height: size[1])
    }

    func buildPyramid(source: PhotoSource, into directory: String) throws -> TilePyramid {
        let size = try probe(source)
        try FileManager.default.createDirectory(atPath: directory + "/0", withIntermediateDirectories: true)
        ScratchFile.write("thumbnail", to: directory + "/thumbnail.jpg")
        return TilePyramid(width: size.width, height: size.height, tileSize: 256)
    }

    func renderTile(source: PhotoSource, tile: TileCoordinate) throws -> [UInt8] { Array("tile".utf8) }
    func thumbnail(source: PhotoSource) throws -> [UInt8] { Array("thumbnail".utf8) }
    func tilePath(in directory: String, _ tile: TileCoordinate) -> String { "\(directory)/\(tile.z)/\(tile.x)_\(tile.y).jpg" }
    func renderRegion(source: PhotoSource, pyramidDirectory: String?, pyramid: TilePyramid, _ rendition: RegionRendition) throws -> [UInt8] {
        Array("region".utf8)
    }
}
