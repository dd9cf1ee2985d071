import Foundation
import Imaging
import Observability
import POSIX

/// Writes a built pyramid as static files any web server can serve:
/// `DIR/{z}/{x}/{y}.jpg` (our URL shape), `DIR/thumbnail.jpg`, `DIR/info.json`, and the same
/// tiles as DeepZoom (`DIR/NAME.dzi` + `DIR/NAME_files/{level}/{x}_{y}.jpg`, levels shifted by
/// `TilePyramid.deepZoomShift`). Files are hard links when the folders share a file system.
public struct PyramidExport: Sendable {
    public let pyramid: TilePyramid
    /// The built pyramid folder (`{z}/{x}_{y}.jpg` + `thumbnail.jpg`).
    public let source: String
    /// Name of the DeepZoom descriptor, without `.dzi`.
    public let name: String
    let tilePath: @Sendable (String, TileCoordinate) -> String
    /// Reads a tile of a pyramid stored in its photo (a pyramidal TIFF served in place, whose
    /// folder holds only its thumbnail); nil for a built pyramid.
    let storedTile: (@Sendable (TileCoordinate) throws -> [UInt8])?

    public init(pyramid: TilePyramid, source: String, name: String,
                tilePath: @escaping @Sendable (String, TileCoordinate) -> String = PhotoRenderer.tilePath,
                storedTile: (@Sendable (TileCoordinate) throws -> [UInt8])? = nil) {
        self.pyramid = pyramid
        self.source = source
        self.name = name
        self.tilePath = tilePath
        self.storedTile = FileSystem.exists(source + "/" + PhotoRenderer.storedMarker) ? storedTile : nil
    }

    /// Writes everything into `directory` (created when missing); returns the number of tiles.
    @discardableResult
    public func write(to directory: String) throws -> Int {
        let files = FileManager.default
        let shift = pyramid.deepZoomShift
        var count = 0
        for z in 0...pyramid.maxZoom {
            let grid = pyramid.grid(z)!
            let deepZoomLevel = "\(directory)/\(name)_files/\(z + shift)"
            try files.createDirectory(atPath: deepZoomLevel, withIntermediateDirectories: true)
            for x in 0..<grid.columns {
                try files.createDirectory(atPath: "\(directory)/\(z)/\(x)", withIntermediateDirectories: true)
                for y in 0..<grid.rows {
                    let tile = TileCoordinate(z: z, x: x, y: y)
                    if let storedTile {
                        let bytes = Data(try storedTile(tile))
                        for to in ["\(directory)/\(z)/\(x)/\(y).jpg", "\(deepZoomLevel)/\(x)_\(y).jpg"] {
                            do { try bytes.write(to: URL(fileURLWithPath: to)) } catch {
                                throw ImagingError.io("cannot write \(to): \(error.localizedDescription)")
                            }
                        }
                        count += 1
                        continue
                    }
                    let from = tilePath(source, tile)
                    try Self.place(from, at: "\(directory)/\(z)/\(x)/\(y).jpg")
                    try Self.place(from, at: "\(deepZoomLevel)/\(x)_\(y).jpg")
                    count += 1
                }
            }
        }
        try Self.place(source + "/thumbnail.jpg", at: directory + "/thumbnail.jpg")
        try Data(dzi.utf8).write(to: URL(fileURLWithPath: "\(directory)/\(name).dzi"))
        try Data(info.utf8).write(to: URL(fileURLWithPath: "\(directory)/info.json"))
        return count
    }

    /// The DeepZoom descriptor. Levels below `deepZoomShift` (smaller than one of our level-0
    /// tiles) are not written; viewers start at the level that fits the screen.
    public var dzi: String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <Image xmlns="http://schemas.microsoft.com/deepzoom/2008" Format="jpg" Overlap="0" TileSize="\(pyramid.tileSize)">
          <Size Width="\(pyramid.width)" Height="\(pyramid.height)"/>
        </Image>

        """
    }

    /// What the folder holds, for people and for viewers that read JSON (a line end after it).
    public var info: String {
        // Strings and whole numbers only: it always encodes.
        ((try? JSONWriter.string(Info(self))) ?? "{}") + "\n"
    }

    /// `info.json`'s members, in this order.
    struct Info: Encodable {
        struct Level: Encodable {
            let z: Int
            let width: Int
            let height: Int
            let columns: Int
            let rows: Int
        }

        struct DeepZoom: Encodable {
            let descriptor: String
            let tiles: String
            var overlap = 0
            let levelShift: Int
            let minLevel: Int
            let maxLevel: Int
        }

        let width: Int
        let height: Int
        let tileSize: Int
        let maxZoom: Int
        var format = "jpg"
        var tiles = "{z}/{x}/{y}.jpg"
        var thumbnail = "thumbnail.jpg"
        let levels: [Level]
        let deepZoom: DeepZoom

        init(_ export: PyramidExport) {
            let pyramid = export.pyramid, shift = pyramid.deepZoomShift
            width = pyramid.width
            height = pyramid.height
            tileSize = pyramid.tileSize
            maxZoom = pyramid.maxZoom
            levels = (0...pyramid.maxZoom).map { z in
                let size = pyramid.levelSize(z)!, grid = pyramid.grid(z)!
                return Level(z: z, width: size.width, height: size.height, columns: grid.columns, rows: grid.rows)
            }
            deepZoom = DeepZoom(descriptor: "\(export.name).dzi", tiles: "\(export.name)_files/{level}/{x}_{y}.jpg",
                                levelShift: shift, minLevel: shift, maxLevel: shift + pyramid.maxZoom)
        }
    }

    /// A hard link, or a copy across file systems; replaces what is there.
    static func place(_ from: String, at to: String) throws {
        FileSystem.removeFile(to)
        if (try? FileSystem.hardLink(from, at: to)) != nil { return }
        do {
            try FileManager.default.copyItem(atPath: from, toPath: to)
        } catch {
            throw ImagingError.io("cannot write \(to): \(error.localizedDescription)")
        }
    }
}
