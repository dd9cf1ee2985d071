import Foundation
import Imaging
import Observability
import POSIX

/// The photos a fresh install shows: five colourful synthetic photos of different shapes, made
/// once in the demo folder. photo5 is the deep-zoom one (108 megapixels); it is drawn last so
/// that name order and id order agree while the others are already on screen.
public struct DemoLibrary: Sendable {
    /// One demo photo: its file name and size.
    public struct Shot: Sendable, Hashable {
        public var name: String
        public var width: Int
        public var height: Int
    }

    /// photo1 landscape, photo2 portrait, photo3 panorama (level 2 has 4 columns, so
    /// `/photos/3/tiles/2/1/0.jpg` exists), photo4 square, photo5 108 MP.
    public static let shots: [Shot] = [
        Shot(name: "photo1.jpg", width: 4032, height: 3024),
        Shot(name: "photo2.jpg", width: 3024, height: 4032),
        Shot(name: "photo3.jpg", width: 8000, height: 2000),
        Shot(name: "photo4.jpg", width: 3000, height: 3000),
        Shot(name: "photo5.jpg", width: 12000, height: 9000),
    ]

    /// Written when every demo photo exists, so that photos a person deleted stay deleted.
    static let marker = ".demo-complete"

    public let directory: String
    public let shots: [Shot]
    let logger: Logger

    public init(directory: String, shots: [Shot] = DemoLibrary.shots, logger: Logger) {
        self.directory = directory
        self.shots = shots
        self.logger = logger
    }

    /// Whether the demo has been made here before.
    public var isComplete: Bool { FileManager.default.fileExists(atPath: directory + "/" + Self.marker) }

    /// Draws the missing demo photos in order, each written under a hidden name and renamed,
    /// so a scan never sees half a file. `onPhoto` hears of each one as it lands.
    public func make(isStopped: () -> Bool = { false }, onPhoto: () -> Void = {}) {
        guard !isComplete else { return }
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            logger.error("cannot make the demo folder", [("path", directory), ("error", "\(error)")])
            return
        }
        // Half-drawn photos of a run that was stopped mid-way.
        for name in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        where name.hasPrefix(".") && name.hasSuffix(".tmp.jpg") {
            try? FileManager.default.removeItem(atPath: directory + "/" + name)
        }
        for (index, shot) in shots.enumerated() {
            guard !isStopped() else { return }
            let path = directory + "/" + shot.name
            if FileManager.default.fileExists(atPath: path) { continue }
            let temporary = directory + "/.\(shot.name).\(System.processID).tmp.jpg"
            let started = ContinuousClock.now
            do {
                try DemoImage.write(to: temporary, width: shot.width, height: shot.height, seed: index + 1)
                do throws(SystemCallError) {
                    try FileSystem.rename(temporary, to: path)
                } catch {
                    throw CatalogScanError.unreadable(path, error.reason)
                }
                logger.info("demo photo drawn", [("photo", shot.name), ("size", "\(shot.width)x\(shot.height)"),
                                                 ("seconds", String(format: "%.1f", (ContinuousClock.now - started).inSeconds))])
                onPhoto()
            } catch {
                try? FileManager.default.removeItem(atPath: temporary)
                logger.error("cannot draw a demo photo", [("photo", shot.name), ("error", "\(error)")])
                return
            }
        }
        FileManager.default.createFile(atPath: directory + "/" + Self.marker, contents: Data())
    }
}
