import Foundation
import POSIX
import Imaging
@testable import Library
import Observability
import TestSupport
import XCTest

/// A renderer that never touches libvips: a "photo" is a text file `fake WxH`, tiles are text.
/// It counts renders and can be slowed down, to test caching and single-flight.
// @unchecked Sendable: the counters are guarded by `lock`; a test sets the delays before the library starts.
final class FakeRenderer: PhotoRendering, @unchecked Sendable {
    private let lock = NSLock()
    private var _tileRenders = 0
    private var _builds = 0
    var delaySeconds: Double = 0
    /// How long each pyramid build takes.
    var buildDelaySeconds: Double = 0
    /// When set, each pyramid build waits until it is signalled (then passes the signal on), so a
    /// test can see a photo before its build without racing the ingest.
    var buildGate: DispatchSemaphore?

    var tileRenders: Int { lock.withLock { _tileRenders } }
    var builds: Int { lock.withLock { _builds } }

    func probe(_ path: PhotoSource) throws -> PhotoSize {
        guard let text = try? path.text(), text.hasPrefix("fake ") else {
            throw ImagingError.notAnImage("no known format")
        }
        let firstLine = text.split(separator: "\n").first ?? ""
        let size = firstLine.dropFirst(5).split(separator: "x").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        guard size.count == 2 else { throw ImagingError.corrupt("bad size") }
        return PhotoSize(width: size[0], height: size[1])
    }

    func buildPyramid(source: PhotoSource, into directory: String) throws -> TilePyramid {
        lock.withLock { _builds += 1 }
        if let buildGate {
            buildGate.wait()
            buildGate.signal()
        }
        if buildDelaySeconds > 0 { Thread.sleep(forTimeInterval: buildDelaySeconds) }
        let info = try probe(source)
        let pyramid = TilePyramid(width: info.width, height: info.height, tileSize: 256)
        let staging = directory + ".partial"
        for z in 0...pyramid.maxZoom {
            try FileManager.default.createDirectory(atPath: "\(staging)/\(z)", withIntermediateDirectories: true)
            let grid = pyramid.grid(z)!
            for x in 0..<grid.columns { for y in 0..<grid.rows {
                ScratchFile.write("disk \(z)/\(x)/\(y)", to: tilePath(in: staging, TileCoordinate(z: z, x: x, y: y)))
            } }
        }
        ScratchFile.write("disk thumbnail", to: staging + "/thumbnail.jpg")
        if rename(staging, directory) != 0 { try? FileManager.default.removeItem(atPath: staging) }
        return pyramid
    }

    func renderTile(source: PhotoSource, tile: TileCoordinate) throws -> [UInt8] {
        lock.withLock { _tileRenders += 1 }
        if delaySeconds > 0 { Thread.sleep(forTimeInterval: delaySeconds) }
        _ = try probe(source)
        return Array("rendered \(tile)".utf8)
    }

    func thumbnail(source: PhotoSource) throws -> [UInt8] {
        lock.withLock { _tileRenders += 1 }
        _ = try probe(source)
        return Array("rendered thumbnail".utf8)
    }

    func tilePath(in directory: String, _ tile: TileCoordinate) -> String {
        "\(directory)/\(tile.z)/\(tile.x)_\(tile.y).jpg"
    }

    /// Counted with the tiles; says where it came from, so tests can tell the pyramid from the source.
    func renderRegion(source: PhotoSource, pyramidDirectory: String?, pyramid: TilePyramid, _ rendition: RegionRendition) throws -> [UInt8] {
        lock.withLock { _tileRenders += 1 }
        if delaySeconds > 0 { Thread.sleep(forTimeInterval: delaySeconds) }
        _ = try probe(source)
        return Array("\(pyramidDirectory == nil ? "source" : "pyramid") \(rendition.name)".utf8)
    }
}

/// A fresh photos folder and data folder, removed when the test ends.
struct Folders {
    let photos: String
    let data: String
    private unowned let test: XCTestCase

    /// `inMemory`: in /dev/shm where there is one, for tests that make many files or folders
    /// (a disk under load makes 200,000 files in minutes, memory in a second).
    init(_ test: XCTestCase, inMemory: Bool = false) throws {
        self.test = test
        let base = inMemory && access("/dev/shm", W_OK) == 0 ? "/dev/shm/" : NSTemporaryDirectory()
        let root = base + "library-test-\(UUID().uuidString)"
        photos = root + "/photos"
        data = root + "/data"
        try FileManager.default.createDirectory(atPath: photos, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        test.addTeardownBlock { try? FileManager.default.removeItem(atPath: root) }
    }

    /// Writes a fake photo (for `FakeRenderer`).
    func fake(_ name: String, _ width: Int, _ height: Int, extra: String = "") {
        Self.fake(at: photos + "/" + name, width, height, extra: extra)
    }

    /// The same at a path, for closures that run on other threads (a `Folders` holds its test case).
    static func fake(at path: String, _ width: Int, _ height: Int, extra: String = "") {
        ScratchFile.write("fake \(width)x\(height)\n\(extra)", to: path)
    }

    /// The fingerprint of a file, as a scan takes it.
    static func stat(_ path: String) -> FileFingerprint {
        PhotoFolder(root: "/").fingerprint(String(path.dropFirst())) ?? FileFingerprint(size: -1, modified: 0, inode: 0)
    }

    /// Writes a real JPEG drawn by libvips.
    /// Made once a test run for each size, seed and format (`SharedFixture`: a large one is a
    /// second of CPU); the folder gets a copy of its own.
    func real(_ name: String, _ width: Int, _ height: Int, seed: Int = 1) throws {
        // DemoImage saves a PNG for a name ending .png, else a JPEG at its default quality, 90.
        let format = name.lowercased().hasSuffix(".png") ? "png" : "q90.jpg"
        try SharedFixture.copy("demo-\(width)x\(height)-seed\(seed).\(format)", to: photos + "/" + name) { made in
            try DemoImage.write(to: made, width: width, height: height, seed: seed)
        }
    }

    func library(renderer: (any PhotoRendering)? = nil, store: (any CatalogStore)? = nil, cacheBytes: Int = 1 << 20,
                 garbageAge: Double = 60, retryDelay: Double = 5, logger: Logger = .disabled,
                 metrics: MetricsRegistry = MetricsRegistry()) throws -> PhotoLibrary {
        let library = try PhotoLibrary(configuration: LibraryConfiguration(photosDirectory: photos, dataDirectory: data, tileCacheBytes: cacheBytes,
                                                             ingestConcurrency: 2, rescanSeconds: 0, garbageAgeSeconds: garbageAge,
                                                             retryDelaySeconds: retryDelay),
                         store: store, renderer: renderer, logger: logger, metrics: metrics)
        // Registered after the folder removal, so it runs before it: no build may write into a removed folder.
        test.addTeardownBlock {
            library.stop()
            library.waitForIngest(timeoutSeconds: 60)
        }
        return library
    }
}

extension PhotoSource {
    /// The whole file as text, read through the source (as the library opens it).
    func text() throws -> String {
        let file = try open()
        defer { file.close() }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = try buffer.withUnsafeMutableBytes { try file.read(into: $0) }
            if n == 0 { break }
            bytes += buffer[..<n]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
