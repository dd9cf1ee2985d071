import Foundation
import POSIX
import Synchronization
import TIFFLayout

extension PhotoRenderer {
    /// The file a pyramid folder holds, besides its thumbnail, when its photo's tiles are read
    /// from the photo itself (a pyramidal TIFF served in place).
    public static let storedMarker = "stored-pyramid"

    /// Layouts read, by file: a tile asked of a stored pyramid does not read its directories again.
    private static let layouts = StoredLayouts()

    /// The stored pyramid of `source` when it is a pyramidal TIFF to serve in place (see
    /// `StoredPyramid.match`); nil for any other file. A TIFF whose directories cannot be trusted
    /// (they loop, point past the end, or its levels lie about their size) is `.corrupt`.
    public static func storedPyramid(_ source: PhotoSource, settings: RenderSettings) throws -> StoredPyramid? {
        let file = try source.open()
        defer { file.close() }
        return try storedPyramid(file, name: source.name, settings: settings)
    }

    static func storedPyramid(_ file: FileDescriptor, name: String, settings: RenderSettings) throws -> StoredPyramid? {
        let status: FileStatus
        do { status = try file.status() } catch { throw ImagingError.io("\(name): \(error.reason)") }
        let key = StoredLayouts.Key(name: name, inode: status.inode, size: status.size, modified: status.modifiedNanoseconds)
        if let known = layouts[key] { return known.flatMap { StoredPyramid.match($0, tileSize: settings.tileSize) } }
        let layout: TIFFPyramidLayout?
        do {
            layout = try TIFFPyramidLayout.read(TIFFFileBytes(file: file, count: status.size))
        } catch .notTIFF {
            layout = nil
        } catch {
            throw ImagingError.corrupt("its TIFF directories cannot be trusted: \(error)")
        }
        layouts[key] = .some(layout)
        return layout.flatMap { StoredPyramid.match($0, tileSize: settings.tileSize) }
    }

    /// A tile of a stored pyramid: the file's own JPEG bytes where they are the tile as served,
    /// else the tile cut from its level (or, for a level the file does not have, from the nearest
    /// larger one) and encoded. Nil when `source` is not a stored pyramid.
    public static func storedTile(source: PhotoSource, tile: TileCoordinate, settings: RenderSettings) throws -> [UInt8]? {
        let file = try source.open()
        defer { file.close() }
        guard let stored = try storedPyramid(file, name: source.name, settings: settings) else { return nil }
        guard let rect = stored.pyramid.rect(tile) else { throw ImagingError.noSuchTile(tile) }
        if let level = stored.stored(tile.z), stored.sendsBytes(of: level, tile) {
            let status: FileStatus
            do { status = try file.status() } catch { throw ImagingError.io("\(source.name): \(error.reason)") }
            let bytes = TIFFFileBytes(file: file, count: status.size)
            do {
                let place = try level.tile(column: tile.x, row: tile.y, in: bytes)
                if let data = bytes.read(at: place.offset, length: place.length),
                   let joined = JPEGTileJoin.join(tables: level.jpegTables, tile: data) {
                    return joined
                }
            } catch {
                throw ImagingError.corrupt("tile \(tile) of its TIFF: \(error)")
            }
        }
        let level = stored.stored(tile.z) ?? stored.nearest(tile.z)
        let size = stored.pyramid.levelSize(tile.z)!
        let image = try openLevel(source, level)
        let within = levelRect(PixelRect(x: rect.x, y: rect.y, width: rect.width, height: rect.height),
                               scaleX: Double(level.width) / Double(size.width), scaleY: Double(level.height) / Double(size.height),
                               level: (level.width, level.height))
        let piece = try scaled(try displayable(try image.cropped(within), background: settings.background),
                               toWidth: rect.width, height: rect.height)
        return try piece.jpeg(quality: settings.jpegQuality)
    }

    /// The square thumbnail of a stored pyramid, from its smallest level that covers it.
    static func storedThumbnail(source: PhotoSource, _ stored: StoredPyramid, settings: RenderSettings) throws -> [UInt8] {
        let level = stored.layout.levels.last { min($0.width, $0.height) >= settings.thumbnailSize } ?? stored.layout.levels[0]
        let image = try displayable(try openLevel(source, level), background: settings.background)
        return try squareThumbnail(of: image, orientation: 1, settings: settings)
    }

    /// A rendition of a stored pyramid, cut from its smallest level that still has the pixels
    /// the answer needs, decoding only the tiles the region covers.
    static func storedRegion(source: PhotoSource, _ stored: StoredPyramid, _ rendition: RegionRendition, settings: RenderSettings,
                             stop: RenderStop?) throws -> [UInt8] {
        let r = rendition.region
        let W = Double(stored.pyramid.width), H = Double(stored.pyramid.height)
        let needX = Double(rendition.width) / Double(r.width), needY = Double(rendition.height) / Double(r.height)
        let level = stored.layout.levels.last {
            Double($0.width) / W >= needX * (1 - 1e-9) && Double($0.height) / H >= needY * (1 - 1e-9)
        } ?? stored.layout.levels[0]
        let image = try openLevel(source, level, stop: stop)
        let rect = levelRect(r, scaleX: Double(level.width) / W, scaleY: Double(level.height) / H, level: (level.width, level.height))
        let piece = try scaled(try displayable(try image.cropped(rect), background: settings.background),
                               toWidth: rendition.width, height: rendition.height)
        return try finish(piece, rendition, settings: settings, inMemory: false, stop: stop)
    }

    /// Writes what a stored pyramid keeps in the data folder into `staging`: its thumbnail (the
    /// one rendered before, when there is one) and the marker that says its tiles are the file's.
    static func writeStored(_ stored: StoredPyramid, source: PhotoSource, into staging: String, settings: RenderSettings) throws {
        let thumbnail = staging + "/thumbnail.jpg"
        do {
            if !FileSystem.exists(thumbnail) {
                let bytes = try storedThumbnail(source: source, stored, settings: settings)
                try Data(bytes).write(to: URL(fileURLWithPath: thumbnail))
            }
            let levels = stored.layout.levels.map { "\($0.width)x\($0.height)" }.joined(separator: " ")
            try Data("tiles read from the photo's own levels: \(levels)\n".utf8)
                .write(to: URL(fileURLWithPath: staging + "/" + storedMarker))
        } catch let error as ImagingError {
            throw error
        } catch {
            throw ImagingError.io("cannot write the stored pyramid's thumbnail: \(error.localizedDescription)")
        }
    }

    private static func openLevel(_ source: PhotoSource, _ level: TIFFLevel, stop: RenderStop? = nil) throws -> VipsImage {
        switch level.place {
        case .page(let page): try VipsImage.openTIFFLevel(source, page: page, subDirectory: -1, stop: stop)
        case .subDirectory(let index): try VipsImage.openTIFFLevel(source, page: 0, subDirectory: index, stop: stop)
        }
    }
}
