import FolderScan
import Foundation
import Observability
import POSIX
import Synchronization

/// Tells the library what changed below the photos folder as it happens (Linux inotify), so
/// that nothing needs walking while nothing changes. Every folder the scan walks is watched (the
/// same `FolderWalk`: never a folder outside the photos folder, a loop of links once),
/// folders created later too; when the kernel's queue overflows, or the folder itself goes,
/// the library is asked for one full scan. The only file that makes inotify calls.
final class FolderWatcher: Sendable {
    /// Why watching could not start, in words for the log.
    struct Unavailable: Error, CustomStringConvertible {
        var description: String
        /// The photos folder could not be watched (not there yet): worth trying again once it is.
        var retryable = false
        /// The watch limit was reached: the tree holds more folders than may be watched.
        var limitReached = false
    }

    private let folder: PhotoFolder
    private let logger: Logger
    /// Most folders watched at once (nil: as many as the kernel allows), so tests can reach
    /// the limit without lowering `fs.inotify.max_user_watches` for the whole machine.
    private let maxWatches: Int?
    private let deliver: @Sendable (WatchOutcome) -> Void
    private let table = Mutex(WatchTable())
    /// The inotify instance and the pipe that wakes the reading thread, made by `start()` before
    /// that thread runs and let go by `deinit`; whether the thread runs, until `stop()`.
    private struct Running {
        var inotify: Inotify?
        var wake: WakePipe?
        var reading = false
    }

    private let running = Mutex(Running())
    private let finished = DispatchSemaphore(value: 0)
    /// Whether a folder is watched through its own descriptor (/proc/self/fd), which names the
    /// very folder the walk opened; otherwise by path, not following a last link.
    private static let watchesByDescriptor = Inotify.canWatchByDescriptor

    /// `deliver` hears every batch of changes, on the watcher's thread.
    init(folder: PhotoFolder, logger: Logger, maxWatches: Int? = nil, deliver: @escaping @Sendable (WatchOutcome) -> Void) {
        self.folder = folder
        self.logger = logger
        self.maxWatches = maxWatches
        self.deliver = deliver
    }

    deinit { closeDescriptors() }

    /// Folders watched now.
    var watchCount: Int { table.withLock { $0.count } }

    /// Watches the whole tree and starts reading events; throws when inotify cannot be used
    /// (another system, no instances left, the watch limit reached, the folder not there).
    func start() throws {
        #if os(Linux)
        do throws(SystemCallError) {
            let inotify = try Inotify()
            running.withLock { $0.inotify = inotify }
            let wake = try WakePipe()
            running.withLock { $0.wake = wake }
        } catch {
            throw Unavailable(description: "\(error.call) failed: \(error.reason)")
        }
        try watchTree("")
        let thread = Thread { [self] in
            BackgroundThread.lowerPriority()
            readLoop()
            finished.signal()
        }
        thread.name = "folder-watch"
        running.withLock { $0.reading = true }
        thread.start()
        #else
        throw Unavailable(description: "inotify exists only on Linux")
        #endif
    }

    /// Stops reading; returns once the thread has ended.
    func stop() {
        let wake = running.withLock { running -> WakePipe? in
            guard running.reading else { return nil }
            running.reading = false
            return running.wake
        }
        guard let wake else { return }
        wake.signal()
        // The thread signals `finished` as it ends: at once if it has ended already.
        _ = finished.wait(timeout: .now() + 5)
    }

    private func closeDescriptors() {
        running.withLock { running in
            running.inotify?.close()
            running.inotify = nil
            running.wake = nil
        }
    }

    /// Adds watches for `relative` and every folder the scan would walk below it.
    private func watchTree(_ relative: String) throws {
        #if os(Linux)
        guard let inotify = running.withLock({ $0.inotify }) else { return }
        var failure: Unavailable?
        let walk = FolderWalk(confinement: folder.confinement, listsFiles: false) { [self] path, descriptor in
            let count = table.withLock { $0.count }
            if let maxWatches, count >= maxWatches {
                failure = Self.limit(count)
                return false
            }
            let watch: Int32
            do throws(SystemCallError) {
                watch = Self.watchesByDescriptor
                    ? try inotify.watch(descriptor: descriptor, mask: WatchTable.mask)
                    : try inotify.watch(path: path.isEmpty ? folder.root : folder.absolute(path), mask: WatchTable.mask)
            } catch {
                if error.errno == Errno.noSpace {
                    failure = Self.limit(count)
                    return false
                }
                if path.isEmpty {
                    failure = Unavailable(description: "cannot watch \(folder.root): \(error.reason)", retryable: true)
                    return false
                }
                return true  // gone or unreadable meanwhile; a scan says what it is
            }
            table.withLock { $0.add(watch, path: path) }
            return true
        }
        let listing = walk.run([relative], recursive: true)
        if let failure { throw failure }
        if relative.isEmpty {
            guard case .listed? = listing.directories[""] else {
                throw Unavailable(description: "cannot watch \(folder.root): it is \(listing.directories[""].map { "\($0)" } ?? "missing")",
                                  retryable: true)
            }
        }
        #endif
    }

    /// The limit in words: the kernel's, or the one this watcher was given.
    private static func limit(_ count: Int) -> Unavailable {
        Unavailable(description: "the inotify watch limit (fs.inotify.max_user_watches) is reached at \(count) folders",
                    limitReached: true)
    }

    private func readLoop() {
        #if os(Linux)
        let descriptors = running.withLock { running -> (inotify: Inotify, wake: WakePipe)? in
            guard let inotify = running.inotify, let wake = running.wake else { return nil }
            return (inotify, wake)
        }
        guard let descriptors else { return }
        let (inotify, wake) = descriptors
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 256 * 1024, alignment: 8)
        defer { buffer.deallocate() }
        var batch: [WatchEvent] = []
        while true {
            // A moved-away folder waits a moment for its arrival elsewhere, to be told apart
            // from a folder moved out of the photos folder.
            let timeout: Duration? = batch.isEmpty ? nil : .milliseconds(50)
            let ready: [Bool]
            do throws(SystemCallError) { ready = try Poll.readable([inotify.fd, wake.readEnd], timeout: timeout) } catch {
                logger.error("watching the photos folder failed", [("error", error.reason)])
                return
            }
            if ready[1] { return }
            if ready[0] {
                // Non-blocking: read until the queue is empty (would-block) or broken.
                while let n = inotify.readEvents(into: buffer) {
                    batch += Self.parse(UnsafeRawBufferPointer(start: buffer.baseAddress, count: n))
                }
                if WatchTable.hasUnpairedMove(batch) { continue }
            }
            guard !batch.isEmpty else { continue }
            let handled = table.withLock { $0.handle(batch) }
            batch.removeAll(keepingCapacity: true)
            for watch in handled.unwatch { inotify.removeWatch(watch) }
            var outcome = handled
            for folder in outcome.watch {
                do { try watchTree(folder) } catch let error as Unavailable where error.limitReached {
                    outcome.limitReached = error.description
                    break
                } catch {
                    logger.warning("a new folder cannot be watched; the timed rescan will find its photos",
                                   [("folder", folder), ("error", "\(error)")])
                }
            }
            if !outcome.isEmpty { deliver(outcome) }
        }
        #endif
    }

    /// The events in one read: `struct inotify_event` after `struct inotify_event`, each name
    /// padded with NULs.
    static func parse(_ bytes: UnsafeRawBufferPointer) -> [WatchEvent] {
        var events: [WatchEvent] = []
        var offset = 0
        while offset + 16 <= bytes.count {
            let watch = bytes.loadUnaligned(fromByteOffset: offset, as: Int32.self)
            let mask = bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
            let cookie = bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt32.self)
            let length = Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
            let nameBytes = bytes[(offset + 16)..<min(bytes.count, offset + 16 + length)]
            let name = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
            events.append(WatchEvent(watch: watch, mask: mask, cookie: cookie, name: name))
            offset += 16 + length
        }
        return events
    }
}
