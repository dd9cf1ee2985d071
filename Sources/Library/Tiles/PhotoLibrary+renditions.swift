import Foundation
import Imaging
import POSIX

extension PhotoLibrary {
    /// A region of the photo's current version, scaled, turned and encoded: from memory, or
    /// rendered from the built pyramid's tiles (from the photo itself while there is none yet) and
    /// kept in the same memory cache as the tiles. Concurrent callers for the same rendition share
    /// one render. Blocks: call it off the event loop. `stop` ends the render early; a caller that
    /// waited on another's render which was stopped gets that error too.
    public func rendition(of photo: Photo, _ rendition: RegionRendition, stop: RenderStop? = nil) throws -> [UInt8] {
        try cachedOrFilled(TileKey(version: photo.version, rendition: rendition.name)) { () throws -> [UInt8] in
            guard let pyramid = photo.pyramid(tileSize: configuration.settings.tileSize) else {
                throw ImagingError.corrupt("the photo's size is not known")
            }
            let directory = catalog.pyramidDirectory(photo.version)
            // A pyramid is renamed into place whole, so its first tile means all of it is there.
            let built = FileSystem.isReadable(renderer.tilePath(in: directory, TileCoordinate(z: 0, x: 0, y: 0)))
            if !built, let bytes = try renditionFromFirstStage(photo, pyramid: pyramid, rendition, stop: stop) { return bytes }
            return try renderer.renderRegion(source: catalog.source(of: photo), pyramidDirectory: built ? directory : nil,
                                             pyramid: pyramid, rendition, stop: stop)
        }
    }

    /// A rendition of a photo not built yet, cut from the low levels of its first stage (a JPEG
    /// read straight: one decode shrunk by libjpeg, which the ingest makes anyway and a viewer's
    /// first tiles come from) rather than decoded from the photo again beside it: a gigapixel
    /// photo's fitted view costs its first stage, not a second pass over the whole file. Nil
    /// when the rendition needs finer levels, or the photo is not read straight.
    private func renditionFromFirstStage(_ photo: Photo, pyramid: TilePyramid, _ rendition: RegionRendition,
                                         stop: RenderStop?) throws -> [UInt8]? {
        let photo = try renderedVersion(of: photo)
        let source = catalog.source(of: photo), version = photo.version
        guard try renderer.renderUnit(source: source, tile: TileCoordinate(z: 0, x: 0, y: 0)) == .first else { return nil }
        let top = PhotoRenderer.firstLevels(of: pyramid, settings: configuration.settings)
        // Made (or waited for) through the tile path, then read where it is now: the early
        // folder, the build's staging folder that took it over, or the pyramid in place.
        let place = { (tile: TileCoordinate) throws -> String in
            _ = try self.image(of: photo, tile: tile)
            let staged = self.work.staging(version).map { self.renderer.tilePath(in: $0, tile) }
            let places = [self.early.path(version, tile), staged, self.builtPath(of: photo, tile: tile)].compactMap { $0 }
            return places.first(where: FileSystem.exists) ?? places[0]
        }
        do {
            return try renderer.renderRegion(pyramid: pyramid, levelsUpTo: top, tilePath: place, rendition, stop: stop)
        } catch ImagingError.cancelled {
            throw ImagingError.cancelled
        } catch ImagingError.tookTooLong(let seconds) {
            throw ImagingError.tookTooLong(seconds: seconds)
        } catch {
            // A folder moved between finding a tile and reading it (the build took the early
            // folder over, or renamed its staging folder into place): once more, from where
            // the tiles are now.
            return try renderer.renderRegion(pyramid: pyramid, levelsUpTo: top, tilePath: place, rendition, stop: stop)
        }
    }
}
