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
            return try renderer.renderRegion(source: catalog.source(of: photo), pyramidDirectory: built ? directory : nil,
                                             pyramid: pyramid, rendition, stop: stop)
        }
    }
}
