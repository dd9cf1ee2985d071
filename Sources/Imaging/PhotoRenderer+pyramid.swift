import Foundation
import POSIX
import Synchronization

/// What a build tells about its tiles while it runs, so that a request for one of them waits for
/// the build's file instead of rendering it a second time.
public struct BuildWatcher: Sendable {
    /// The staging folder, and which of its files were whole before the build made any (tiles
    /// rendered earlier; nil: the thumbnail). `present` is nil when this build does not report its
    /// tiles one by one (the libvips writer): a request should not wait for them.
    public var started: @Sendable (_ staging: String, _ present: (@Sendable (TileCoordinate?) -> Bool)?) -> Void
    /// A tile (nil: the thumbnail) is whole in the staging folder.
    public var wrote: @Sendable (TileCoordinate?) -> Void

    public init(started: @escaping @Sendable (String, (@Sendable (TileCoordinate?) -> Bool)?) -> Void,
                wrote: @escaping @Sendable (TileCoordinate?) -> Void) {
        self.started = started
        self.wrote = wrote
    }
}

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
    public static func buildPyramid(source: PhotoSource, into directory: String, settings: RenderSettings,
                                    reusing early: String? = nil, helpers: Int = 0, watcher: BuildWatcher? = nil) throws -> TilePyramid {
        try buildPyramid(source: source, into: directory, settings: settings, reusing: early, helpers: helpers, watcher: watcher,
                         warmingIndexFrom: warmedIndexPixels)
    }

    /// The same, warming the scan index of JPEGs of `warmedPixels` and more (tests warm smaller ones).
    static func buildPyramid(source: PhotoSource, into directory: String, settings: RenderSettings, reusing early: String?,
                             helpers: Int, watcher: BuildWatcher?, warmingIndexFrom warmedPixels: Int) throws -> TilePyramid {
        let photo = try openPhoto(source, settings: settings, access: .sequential)
        if photo.isTIFF, let stored = try storedPyramid(source, settings: settings) {
            return try buildStored(stored, source: source, into: directory, reusing: early, settings: settings, watcher: watcher)
        }
        let staging = try makeStagingDirectory(for: directory, from: early)
        do {
            let pyramid: TilePyramid
            if readsStraight(photo) {
                pyramid = try writeStraight(source, photo: photo, into: staging, settings: settings, helpers: helpers, watcher: watcher,
                                            warmedPixels: warmedPixels)
            } else {
                watcher?.started(staging, nil)
                pyramid = try writeThroughVips(source, photo: photo, into: staging, settings: settings)
            }
            try publish(staging, as: directory)
            return pyramid
        } catch {
            try? FileManager.default.removeItem(atPath: staging)
            throw error
        }
    }

    /// A stored pyramid's "build": its thumbnail (taken over from what was rendered before, when
    /// there) and the marker that sends its tiles to the photo itself; no tile is written.
    private static func buildStored(_ stored: StoredPyramid, source: PhotoSource, into directory: String, reusing early: String?,
                                    settings: RenderSettings, watcher: BuildWatcher?) throws -> TilePyramid {
        let staging = try makeStagingDirectory(for: directory)
        do {
            // Tiles are not waited for: they are read from the photo on every request.
            watcher?.started(staging, nil)
            if let early, let thumbnail = FileDescriptor.contents(ofFile: early + "/thumbnail.jpg") {
                try Data(thumbnail).write(to: URL(fileURLWithPath: staging + "/thumbnail.jpg"))
            }
            try writeStored(stored, source: source, into: staging, settings: settings)
            watcher?.wrote(nil)
            try publish(staging, as: directory)
            return stored.pyramid
        } catch {
            try? FileManager.default.removeItem(atPath: staging)
            throw error
        }
    }

    /// The same for a file named by its path (tools, tests).
    public static func buildPyramid(source path: String, into directory: String, settings: RenderSettings,
                                    reusing early: String? = nil, helpers: Int = 0) throws -> TilePyramid {
        try buildPyramid(source: .file(path), into: directory, settings: settings, reusing: early, helpers: helpers)
    }

    /// Straight builds running in this process now.
    static let buildsRunning = Atomic<Int>(0)

    /// A JPEG read straight: one decode in strips, each level cut into tiles as it passes and
    /// halved into the next. Tiles already in `staging` (rendered on demand before the build) are
    /// not encoded again, and levels complete there are not computed at all.
    private static func writeStraight(_ source: PhotoSource, photo: OpenedPhoto, into staging: String, settings: RenderSettings,
                                      helpers: Int, watcher: BuildWatcher?, warmedPixels: Int) throws -> TilePyramid {
        let info = photo.info
        let pyramid = TilePyramid(width: info.width, height: info.height, tileSize: settings.tileSize)
        let present = presentTiles(in: staging, pyramid: pyramid)
        // Levels complete from 0 upwards need nothing: the cascade stops above them.
        var bottom = 0
        while bottom <= pyramid.maxZoom, present.complete(bottom) { bottom += 1 }
        let hasThumbnail = FileSystem.exists(staging + "/thumbnail.jpg")
        watcher?.started(staging) { tile in tile.map { present.contains($0) } ?? hasThumbnail }
        let keep = thumbnailLevel(of: pyramid, size: settings.thumbnailSize)
        var kept: RGBPixels?
        if bottom <= pyramid.maxZoom {
            for z in bottom...pyramid.maxZoom { try makeDirectory(staging + "/\(z)") }
            // Helpers only for the processors other builds leave free: two builds on two cores
            // keep both busy already, and more threads would only take turns.
            let running = buildsRunning.add(1, ordering: .relaxed).newValue
            defer { buildsRunning.subtract(1, ordering: .relaxed) }
            let crew = TileCrew(helpers: min(helpers, ProcessInfo.processInfo.activeProcessorCount - running))
            defer { crew.stop() }
            // The index serves rows only until the pyramid holds them: its pass ends with the
            // build (by then nearly always done: it costs about half a decode), failed or not.
            let indexStop = RenderStop()
            defer { indexStop.cancel() }
            warmScanIndex(source, pyramid: pyramid, from: warmedPixels, stop: indexStop)
            let keeping = !hasThumbnail && keep >= bottom ? keep : nil
            kept = try decodeLevels(source, pyramid: pyramid, top: pyramid.maxZoom, bottom: bottom, keeping: keeping,
                                    settings: settings, crew: crew, wanted: { !present.contains($0) }) { tile, bytes in
                try write(bytes, to: tilePath(in: staging, tile))
                watcher?.wrote(tile)
            }
        }
        if !hasThumbnail {
            let bytes: [UInt8]
            if let kept {
                bytes = try squareThumbnail(of: kept.image(rows: pyramid.levelSize(keep)!.height), orientation: 1, settings: settings)
            } else {
                bytes = try thumbnail(pyramid: pyramid, directory: staging, settings: settings) ?? thumbnail(source: source, settings: settings)
            }
            try write(bytes, to: staging + "/thumbnail.jpg")
            watcher?.wrote(nil)
        }
        for z in 0...pyramid.maxZoom { try checkLevel(staging + "/\(z)", z: z, pyramid: pyramid) }
        return pyramid
    }

    /// Photos from this many pixels get their scan index made beside their build. The build of
    /// one takes a minute or more to reach its middle rows, and a native tile asked before then
    /// costs a decode down to its row (seconds); with the index ready it costs a band. Below, a
    /// decode down to any row takes about a second of one processor, and the first native tile
    /// asked makes the index anyway (for about as much): not worth a pass over every file ingested.
    static let warmedIndexPixels = 100_000_000

    /// Starts the scan index of a JPEG without restart markers of `pixels` or more on a
    /// low-priority thread.
    private static func warmScanIndex(_ source: PhotoSource, pyramid: TilePyramid, from pixels: Int, stop: RenderStop) {
        guard pyramid.width * pyramid.height >= pixels, let file = try? source.open() else { return }
        defer { file.close() }
        guard !JPEGRows.restartsAtRows(descriptor: file.rawValue), JPEGScanIndex.indexes(descriptor: file.rawValue) else { return }
        JPEGScanIndexes.shared.warm(source, stop: stop)
    }

    /// Any other photo: libvips decodes, turns and converts it, and its DeepZoom writer cuts the
    /// levels. A thumbnail rendered before the build is kept; tiles rendered before it are not
    /// reused (the writer makes every level).
    private static func writeThroughVips(_ source: PhotoSource, photo: OpenedPhoto, into staging: String,
                                         settings: RenderSettings) throws -> TilePyramid {
        let upright = photo.image.orientation == 1
            ? photo.image
            : try openPhoto(source, settings: settings, access: .random).image.autorotated()
        let image = try displayable(upright, background: settings.background)
        let pyramid = TilePyramid(width: image.width, height: image.height, tileSize: settings.tileSize)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: staging)) ?? []
        for name in names where name != "thumbnail.jpg" { try? FileManager.default.removeItem(atPath: staging + "/" + name) }
        try writeLevels(of: image, pyramid: pyramid, into: staging, settings: settings)
        if !names.contains("thumbnail.jpg") {
            let thumbnail = try thumbnail(pyramid: pyramid, directory: staging, settings: settings)
                ?? thumbnail(source: source, settings: settings)
            try write(thumbnail, to: staging + "/thumbnail.jpg")
        }
        return pyramid
    }

    /// The tiles a staging folder holds already, by level.
    struct PresentTiles: Sendable {
        var names: [Int: Set<String>] = [:]
        var counts: [Int: Int] = [:]

        func contains(_ tile: TileCoordinate) -> Bool { names[tile.z]?.contains("\(tile.x)_\(tile.y).jpg") ?? false }

        func complete(_ z: Int) -> Bool { (names[z]?.count ?? 0) >= (counts[z] ?? 1) && counts[z] != nil }
    }

    static func presentTiles(in staging: String, pyramid: TilePyramid) -> PresentTiles {
        var present = PresentTiles()
        for z in 0...pyramid.maxZoom {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: staging + "/\(z)") else { continue }
            let grid = pyramid.grid(z)!
            // Only finished tiles count: a render that was cut short leaves hidden temporary names.
            present.names[z] = Set(names.filter { !$0.hasPrefix(".") })
            present.counts[z] = grid.columns * grid.rows
        }
        return present
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

    /// A fresh directory next to `directory`, so the final rename stays within one file system:
    /// `early` (what was rendered before the build) moved there when it exists, else an empty one.
    private static func makeStagingDirectory(for directory: String, from early: String? = nil) throws -> String {
        let url = URL(fileURLWithPath: directory)
        let parent = url.deletingLastPathComponent().path
        let staging = parent + "/.\(url.lastPathComponent).partial-\(System.processID)-\(UInt32.random(in: 0...UInt32.max))"
        do {
            try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
            if let early, (try? FileSystem.rename(early, to: staging)) != nil { return staging }
            try FileManager.default.createDirectory(atPath: staging, withIntermediateDirectories: false)
        } catch {
            throw ImagingError.io("cannot create \(staging): \(error.localizedDescription)")
        }
        return staging
    }

    private static func makeDirectory(_ path: String) throws {
        do throws(SystemCallError) {
            try FileSystem.makeDirectory(path)
        } catch where error.errno != Errno.fileExists {
            throw ImagingError.io("cannot create \(path): \(error.reason)")
        } catch {}
    }

    /// Renames the finished pyramid into place; a pyramid already there wins.
    private static func publish(_ staging: String, as directory: String) throws {
        do throws(SystemCallError) {
            try FileSystem.rename(staging, to: directory)
        } catch where error.errno == Errno.directoryNotEmpty || error.errno == Errno.fileExists {
            try? FileManager.default.removeItem(atPath: staging)
        } catch {
            throw ImagingError.io("cannot rename \(staging) to \(directory): \(error.reason)")
        }
    }

    private static func move(_ from: String, to: String) throws {
        do throws(SystemCallError) { try FileSystem.rename(from, to: to) } catch {
            throw ImagingError.io("cannot rename \(from) to \(to): \(error.reason)")
        }
    }

    static func write(_ bytes: [UInt8], to path: String) throws {
        do {
            let file = try FileDescriptor.open(path, OpenFlags.writeOnly | OpenFlags.create | OpenFlags.truncate)
            defer { file.close() }
            try bytes.withUnsafeBytes { try file.write($0) }
        } catch {
            throw ImagingError.io("cannot write \(path): \((error as? SystemCallError)?.reason ?? "\(error)")")
        }
    }
}
