import Foundation
import Imaging
import POSIX

/// What is rendered of a photo before its pyramid is built, kept on disk so that it is made once:
/// the thumbnail and low levels of its first stage, tiles rendered on demand for a viewer. They
/// live in `<tiles>/.early/<version>/` laid out as a pyramid (`thumbnail.jpg`, `{z}/{x}_{y}.jpg`),
/// and the build takes the folder over as the start of the pyramid.
///
/// Every file is written under a temporary name and renamed into place, so a reader (or another
/// process on the same data folder) never sees half a tile.
struct EarlyTiles: Sendable {
    /// `<tiles>/.early`.
    let root: String

    init(tilesDirectory: String) { root = tilesDirectory + "/.early" }

    func directory(_ version: String) -> String { root + "/" + version }

    /// Where a tile (nil: the thumbnail) of a version goes.
    func path(_ version: String, _ tile: TileCoordinate?) -> String {
        guard let tile else { return directory(version) + "/thumbnail.jpg" }
        return directory(version) + "/\(tile.z)/\(tile.x)_\(tile.y).jpg"
    }

    /// Whether the version's thumbnail is there.
    func hasThumbnail(_ version: String) -> Bool { FileSystem.exists(path(version, nil)) }

    /// Writes one file atomically, making its folders as needed.
    func write(_ bytes: [UInt8], version: String, tile: TileCoordinate?) throws {
        let target = path(version, tile)
        let folder = tile.map { directory(version) + "/\($0.z)" } ?? directory(version)
        let temporary = folder + "/.\(tile.map { "\($0.x)_\($0.y)" } ?? "thumbnail").\(UInt32.random(in: 0...UInt32.max)).tmp"
        func attempt() throws {
            let file = try FileDescriptor.open(temporary, OpenFlags.writeOnly | OpenFlags.create | OpenFlags.exclusive)
            defer { file.close() }
            try bytes.withUnsafeBytes { try file.write($0) }
        }
        do {
            do {
                try attempt()
            } catch let error as SystemCallError where error.errno == Errno.noSuchFile {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                try attempt()
            }
            try FileSystem.rename(temporary, to: target)
        } catch {
            FileSystem.removeFile(temporary)
            throw ImagingError.io("cannot keep a rendered tile: \(error)")
        }
    }

    /// The versions that have a folder, from one read of `.early`.
    func versions() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []).filter { !$0.hasPrefix(".") }
    }

    /// Removes a version's folder.
    func remove(_ version: String) {
        try? FileManager.default.removeItem(atPath: directory(version))
    }
}
