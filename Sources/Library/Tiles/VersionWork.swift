import Foundation
import Imaging

/// Who makes the tiles of a photo version while its pyramid is not built: renders on demand
/// (into the early folder) or the build (which takes that folder over). One at a time, so that
/// no tile is made twice:
///
/// - a build waits for the renders on demand in flight to end, then moves their files in;
/// - a request while the build runs renders nothing: it waits for the build to write its tile
///   (or finds it among what the build took over), and reads that file.
///
/// A build that does not report its tiles one by one (the libvips writer, which makes every
/// level anew anyway) lets requests render on demand as before.
// @unchecked Sendable: `versions` is guarded by `condition`, which the waiting callers wait on.
final class VersionWork: @unchecked Sendable {
    private struct Build {
        /// The staging folder, once the build made it.
        var staging: String?
        /// Tiles whole in the staging folder before the build made any; nil until it started, or
        /// for ever when it does not report tiles.
        var present: (@Sendable (TileCoordinate?) -> Bool)?
        var reports = true
        /// Tiles the build wrote (`nil`: the thumbnail), each whole.
        var written: Set<TileCoordinate?> = []
    }

    private struct Entry {
        var renders = 0
        var build: Build?
        /// Tiles (`nil`: the thumbnail) the renders in flight wrote whole into the early folder.
        var early: Set<TileCoordinate?> = []
        /// Why renders that ended while others were in flight failed, by unit.
        var failures: [RenderUnit: any Error] = [:]
    }

    private let condition = NSCondition()
    private var versions: [String: Entry] = [:]
    private var waiting = 0

    /// What a request may do now.
    enum Turn: Equatable {
        /// Render: counted until `endRender`.
        case render
        /// The version's build is running and will make the tile: `awaitBuild`.
        case build
    }

    /// Counts a render on demand of `version`, unless its build runs and reports its tiles.
    func beginRender(_ version: String) -> Turn {
        condition.lock()
        defer { condition.unlock() }
        if let build = versions[version]?.build, build.reports { return .build }
        versions[version, default: Entry()].renders += 1
        return .render
    }

    func endRender(_ version: String) {
        condition.lock()
        defer { condition.unlock() }
        versions[version]?.renders -= 1
        if let entry = versions[version], entry.renders == 0, entry.build == nil { versions[version] = nil }
        condition.broadcast()
    }

    /// A render on demand wrote a tile whole into the early folder.
    func wroteEarly(_ version: String, _ tile: TileCoordinate?) {
        condition.lock()
        defer { condition.unlock() }
        versions[version]?.early.insert(tile)
        condition.broadcast()
    }

    /// A render on demand of `unit` failed: those waiting for it fail with it.
    func failedEarly(_ version: String, _ unit: RenderUnit, _ error: any Error) {
        condition.lock()
        defer { condition.unlock() }
        versions[version]?.failures[unit] = error
        condition.broadcast()
    }

    /// What a request waiting for a render in flight finds.
    enum Early {
        /// The tile is whole in the early folder.
        case written
        /// The render ended without it.
        case ended
        case failed(any Error)
    }

    /// Waits, while `inFlight` says that the render of `unit` runs, until it wrote `tile` of
    /// `version`. `inFlight` is read under the lock that `endRender` wakes waiters with, after
    /// the render stopped being in flight, so no end is missed.
    func awaitEarly(_ version: String, unit: RenderUnit, tile: TileCoordinate?, while inFlight: () -> Bool) -> Early {
        condition.lock()
        defer { condition.unlock() }
        waiting += 1
        defer { waiting -= 1 }
        while true {
            if versions[version]?.early.contains(tile) == true { return .written }
            if let error = versions[version]?.failures[unit] { return .failed(error) }
            guard inFlight() else { return .ended }
            condition.wait()
        }
    }

    /// The build of `version` starts: waits for the renders on demand in flight (their files go
    /// into the early folder the build takes over); renders asked from now on wait for the build.
    func beginBuild(_ version: String) {
        condition.lock()
        defer { condition.unlock() }
        // One build of a version at a time in this process.
        while versions[version]?.build != nil { condition.wait() }
        versions[version, default: Entry()].build = Build()
        while (versions[version]?.renders ?? 0) > 0 { condition.wait() }
    }

    /// The build has its staging folder (`BuildWatcher.started`).
    func started(_ version: String, staging: String, present: (@Sendable (TileCoordinate?) -> Bool)?) {
        condition.lock()
        defer { condition.unlock() }
        versions[version]?.build?.staging = staging
        versions[version]?.build?.present = present
        versions[version]?.build?.reports = present != nil
        condition.broadcast()
    }

    /// The build wrote a tile (`BuildWatcher.wrote`).
    func wrote(_ version: String, _ tile: TileCoordinate?) {
        condition.lock()
        defer { condition.unlock() }
        versions[version]?.build?.written.insert(tile)
        condition.broadcast()
    }

    func endBuild(_ version: String) {
        condition.lock()
        defer { condition.unlock() }
        versions[version]?.build = nil
        if versions[version]?.renders == 0 { versions[version] = nil }
        condition.broadcast()
    }

    /// What a request that met the build finds once it waited.
    enum Found: Equatable {
        /// The tile is whole at this path in the staging folder (which the build renames into
        /// place when it ends: read the built pyramid when it is gone).
        case staged(String)
        /// The build ended (or does not report its tiles): the built pyramid has the tile, or a
        /// render on demand makes it.
        case ended
    }

    /// Waits until the build of `version` has `tile` (nil: the thumbnail) whole, or has ended.
    /// `path` spells a tile's place in a pyramid folder.
    func awaitBuild(_ version: String, tile: TileCoordinate?, path: (String, TileCoordinate?) -> String) -> Found {
        condition.lock()
        defer { condition.unlock() }
        waiting += 1
        defer { waiting -= 1 }
        while let build = versions[version]?.build, build.reports {
            if let staging = build.staging, let present = build.present, present(tile) || build.written.contains(tile) {
                return .staged(path(staging, tile))
            }
            condition.wait()
        }
        return .ended
    }

    /// The staging folder of the build of `version`, while one runs and has made it.
    func staging(_ version: String) -> String? {
        condition.lock()
        defer { condition.unlock() }
        return versions[version]?.build?.staging
    }

    /// Whether the build of `version` running now has `tile` whole, without waiting for it.
    func hasStaged(_ version: String, tile: TileCoordinate?) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard let build = versions[version]?.build, let present = build.present else { return false }
        return present(tile) || build.written.contains(tile)
    }

    /// Waits until no build of `version` runs.
    func awaitBuildEnd(_ version: String) {
        condition.lock()
        defer { condition.unlock() }
        while versions[version]?.build != nil { condition.wait() }
    }

    /// Requests waiting for a build or a render in flight now.
    var waiters: Int {
        condition.lock()
        defer { condition.unlock() }
        return waiting
    }
}
