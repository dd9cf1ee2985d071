import Foundation
import HTTP
import Imaging
@testable import Library
import Observability
import TestSupport
import XCTest
@testable import App

/// A text "photo" (`WxH`, then the date taken in RFC 3339 on the second line) whose header says
/// when it was taken, for libraries of thousands without libvips.
final class DatedTextRenderer: PhotoRendering, Sendable {
    let text = TextRenderer()

    func probe(_ path: PhotoSource) throws -> PhotoSize { try text.probe(path) }
    func buildPyramid(source: PhotoSource, into directory: String) throws -> TilePyramid { try text.buildPyramid(source: source, into: directory) }
    func renderTile(source: PhotoSource, tile: TileCoordinate) throws -> [UInt8] { try text.renderTile(source: source, tile: tile) }
    func thumbnail(source: PhotoSource) throws -> [UInt8] { try text.thumbnail(source: source) }
    func tilePath(in directory: String, _ tile: TileCoordinate) -> String { text.tilePath(in: directory, tile) }
    func renderRegion(source: PhotoSource, pyramidDirectory: String?, pyramid: TilePyramid, _ rendition: RegionRendition) throws -> [UInt8] {
        try text.renderRegion(source: source, pyramidDirectory: pyramidDirectory, pyramid: pyramid, rendition)
    }
    func metadata(_ path: PhotoSource) throws -> PhotoMetadata? {
        let lines = (try path.text()).split(separator: "\n")
        let size = try probe(path)
        guard lines.count > 1, let taken = CaptureDate(rfc3339: String(lines[1]), source: .exif) else { return nil }
        return PhotoMetadata(taken: taken, make: "Maker", model: "Model \(lines.count)", width: size.width, height: size.height,
                             fileSize: 10, mediaType: "image/jpeg", location: GeoLocation(latitude: 1.5, longitude: -2.25))
    }
}
