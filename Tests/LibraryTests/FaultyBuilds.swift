import Foundation
import Imaging
@testable import Library
import Observability
import Synchronization
import XCTest
import TestSupport

/// A renderer whose pyramid builds fail as told, to stand for a full disk or a file rewritten
/// mid-build; everything else is the fake renderer's.
final class FaultyBuilds: PhotoRendering, Sendable {
    let inner = FakeRenderer()
    /// Builds that fail before one succeeds; `Int.max` for always.
    let failures: Mutex<Int>
    let error: ImagingError
    /// Run inside a failing build, before it throws (to rewrite the file, say).
    let during: @Sendable () -> Void

    init(failing count: Int, with error: ImagingError, during: @escaping @Sendable () -> Void = {}) {
        self.failures = Mutex(count)
        self.error = error
        self.during = during
    }

    var builds: Int { inner.builds }

    func probe(_ path: PhotoSource) throws -> PhotoSize { try inner.probe(path) }
    func buildPyramid(source: PhotoSource, into directory: String) throws -> TilePyramid {
        let fail = failures.withLock { left -> Bool in
            guard left > 0 else { return false }
            if left != Int.max { left -= 1 }
            return true
        }
        guard fail else { return try inner.buildPyramid(source: source, into: directory) }
        during()
        throw error
    }
    func renderTile(source: PhotoSource, tile: TileCoordinate) throws -> [UInt8] { try inner.renderTile(source: source, tile: tile) }
    func thumbnail(source: PhotoSource) throws -> [UInt8] { try inner.thumbnail(source: source) }
    func tilePath(in directory: String, _ tile: TileCoordinate) -> String { inner.tilePath(in: directory, tile) }
    func renderRegion(source: PhotoSource, pyramidDirectory: String?, pyramid: TilePyramid, _ rendition: RegionRendition) throws -> [UInt8] {
        try inner.renderRegion(source: source, pyramidDirectory: pyramidDirectory, pyramid: pyramid, rendition)
    }
}
