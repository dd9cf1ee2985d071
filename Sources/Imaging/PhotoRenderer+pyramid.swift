import Foundation

extension PhotoRenderer {
    /// Writes every level 0…maxZoom into `directory` as `directory/{z}/{x}_{y}.jpg` plus `directory/thumbnail.jpg`,
    /// building in a temporary sibling directory and renaming it into place at the end (atomic: a crash or a second process never leaves half a pyramid).
    /// Streams with libvips (dzsave or equivalent): a 100 MP photo must not need 100 MP of RAM per level. Returns the pyramid's geometry.
    ///
    /// One sequential decode feeds libvips' DeepZoom writer, which shrinks strip by strip; its
    /// levels (rounded up at every halving, edge tiles cropped, never padded) are exactly
    /// TilePyramid's. A photo with an EXIF rotation is opened for random access instead, because
    /// rotating reads rows out of order; libvips then decodes large photos to a temporary file
    /// rather than to memory. When `directory` already holds a pyramid (another process finished
    /// first), that one is kept: pyramids of the same photo and settings are interchangeable.
    /// A crash leaves only a `.<name>.partial-*` sibling, which the next build ignores.
    public static func buildPyramid(source: String, into directory: String, settings: RenderSettings) throws -> TilePyramid {
        let photo = try openPhoto(source, settings: settings, access: .sequential)
        let upright = photo.image.orientation == 1
            ? photo.image
            : try openPhoto(source, settings: settings, access: .random).image.autorotated()
        let image = try displayable(upright, background: settings.background)
        let pyramid = TilePyramid(width: image.width, height: image.height, tileSize: settings.tileSize)

        let staging = try makeStagingDirectory(for: directory)
        do {
            try writeLevels(of: image, pyramid: pyramid, into: staging, settings: settings)
            let thumbnail = try thumbnail(pyramid: pyramid, directory: staging, settings: settings)
                ?? thumbnail(source: source, settings: settings)
            try write(thumbnail, to: staging + "/thumbnail.jpg")
            try publish(staging, as: directory)
        } catch {
            try? FileManager.default.removeItem(atPath: staging)
            throw error
        }
        return pyramid
    }

    /// Runs dzsave into `staging/deepzoom_files/` and renames its level folders to our z.
    private static func writeLevels(of image: VipsImage, pyramid: TilePyramid, into staging: String,
                                    settings: RenderSettings) throws {
        let base = staging + "/deepzoom"
        try image.writeDeepZoom(base: base, tileSize: settings.tileSize,
                                suffix: ".jpg[Q=\(settings.jpegQuality),strip]")
        let files = FileManager.default
        let levelsDirectory = base + "_files"
        let levels = try files.contentsOfDirectory(atPath: levelsDirectory).compactMap(Int.init).sorted()
        // Depending on the libvips version, "onetile" levels count from 0 or from DeepZoom's 1×1
        // level; either way the largest is native resolution and the rest follow down from it.
        guard let native = levels.last, levels == Array((native - pyramid.maxZoom)...native) else {
            throw ImagingError.vips("dzsave wrote levels \(levels), expected \(pyramid.maxZoom + 1) levels")
        }
        for level in levels {
            let z = level - (native - pyramid.maxZoom)
            try checkLevel(levelsDirectory + "/\(level)", z: z, pyramid: pyramid)
            try move(levelsDirectory + "/\(level)", to: staging + "/\(z)")
        }
        try files.removeItem(atPath: levelsDirectory)
        try? files.removeItem(atPath: base + ".dzi")
    }

    /// Confirms that dzsave wrote exactly the level's grid of tiles.
    private static func checkLevel(_ path: String, z: Int, pyramid: TilePyramid) throws {
        let grid = pyramid.grid(z)!
        let count = try FileManager.default.contentsOfDirectory(atPath: path).count
        guard count == grid.columns * grid.rows else {
            throw ImagingError.vips("level \(z) has \(count) tiles, expected \(grid.columns)×\(grid.rows)")
        }
    }

    /// A fresh directory next to `directory`, so the final rename stays within one file system.
    private static func makeStagingDirectory(for directory: String) throws -> String {
        let url = URL(fileURLWithPath: directory)
        let parent = url.deletingLastPathComponent().path
        let staging = parent + "/.\(url.lastPathComponent).partial-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        do {
            try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: staging, withIntermediateDirectories: false)
        } catch {
            throw ImagingError.io("cannot create \(staging): \(error.localizedDescription)")
        }
        return staging
    }

    /// Renames the finished pyramid into place; a pyramid already there wins.
    private static func publish(_ staging: String, as directory: String) throws {
        if rename(staging, directory) == 0 { return }
        let failure = errno
        if failure == ENOTEMPTY || failure == EEXIST {
            try? FileManager.default.removeItem(atPath: staging)
            return
        }
        throw ImagingError.io("cannot rename \(staging) to \(directory): \(String(cString: strerror(failure)))")
    }

    private static func move(_ from: String, to: String) throws {
        guard rename(from, to) == 0 else {
            throw ImagingError.io("cannot rename \(from) to \(to): \(String(cString: strerror(errno)))")
        }
    }

    static func write(_ bytes: [UInt8], to path: String) throws {
        do {
            try Data(bytes).write(to: URL(fileURLWithPath: path))
        } catch {
            throw ImagingError.io("cannot write \(path): \(error.localizedDescription)")
        }
    }
}
