import Foundation
import POSIX
import Synchronization

/// The scan indexes of the last few JPEGs without restart markers whose rows were cut into bands,
/// the least recently used going first. An index takes one pass over the whole file (seconds for
/// a gigapixel photo) and is worth keeping only while the photo's pyramid is being built; it is
/// about 100 kB, so a few cost nothing. Each belongs to one version of one file, known by the
/// identity of the open file (device, inode, size, modification time): a file rewritten in place
/// gets an index of its own. One pass per file at a time: whoever asks while it runs waits for it.
/// A file the pass fails on is remembered as such, so a damaged photo is not read again for
/// every tile asked of it.
final class JPEGScanIndexes: Sendable {
    /// Which version of which file an index belongs to.
    struct FileIdentity: Hashable {
        let device: UInt64, inode: UInt64, size: Int, modified: Int

        init(_ status: FileStatus) {
            device = status.device
            inode = status.inode
            size = status.size
            modified = status.modifiedNanoseconds
        }
    }

    /// One pass over a file, which its askers wait for.
    // @unchecked Sendable: `outcome` is guarded by `condition`.
    private final class Pass: @unchecked Sendable {
        let condition = NSCondition()
        var outcome: JPEGScanIndex??

        func finish(_ index: JPEGScanIndex?) {
            condition.lock()
            outcome = .some(index)
            condition.broadcast()
            condition.unlock()
        }

        func wait() -> JPEGScanIndex? {
            condition.lock()
            defer { condition.unlock() }
            while outcome == nil { condition.wait() }
            return outcome!
        }
    }

    /// What is known of one file: its pass, running or done (a nil index: the pass failed).
    private struct Entry {
        let pass: Pass
        var used: UInt64
    }

    private struct State {
        var entries: [FileIdentity: Entry] = [:]
        var clock: UInt64 = 0
    }

    /// Files whose indexes (or failures) are kept.
    let capacity: Int
    private let state = Mutex(State())

    /// The process's indexes: the renderer's static functions share them.
    static let shared = JPEGScanIndexes(capacity: 4)

    /// A set keeping what it knows of up to `capacity` files.
    init(capacity: Int) { self.capacity = max(1, capacity) }

    /// The index of the JPEG open on `descriptor` (which stays the caller's): kept, made by the
    /// pass another caller runs now, or made here under `stop`. Nil when the file is not one the
    /// index takes, or the pass failed on it (that is kept too). A pass ended by `stop` is not
    /// kept: the next asker starts a new one.
    func index(descriptor: Int32, stop: RenderStop? = nil) -> JPEGScanIndex? {
        // A file the index never takes (progressive, 12-bit, with restarts) is told by its
        // headers alone: it takes no place among the files kept.
        guard JPEGScanIndex.indexes(descriptor: descriptor),
              let status = try? FileDescriptor(rawValue: descriptor).status() else { return nil }
        let identity = FileIdentity(status)
        let (pass, runsHere) = state.withLock { state -> (Pass, Bool) in
            state.clock += 1
            if var entry = state.entries[identity] {
                entry.used = state.clock
                state.entries[identity] = entry
                return (entry.pass, false)
            }
            let pass = Pass()
            state.entries[identity] = Entry(pass: pass, used: state.clock)
            if state.entries.count > capacity, let oldest = state.entries.min(by: { $0.value.used < $1.value.used })?.key {
                state.entries[oldest] = nil
            }
            return (pass, true)
        }
        guard runsHere else { return pass.wait() }
        var index: JPEGScanIndex?
        do {
            index = try JPEGScanIndex(descriptor: descriptor, stop: stop)
        } catch {
            if stop?.reason != nil {
                // Stopped, not failed: forgotten, so that the next asker tries again.
                state.withLock { state in
                    if state.entries[identity]?.pass === pass { state.entries[identity] = nil }
                }
            }
        }
        pass.finish(index)
        return index
    }

    /// Starts the index of `source` on a thread of its own at a lowered priority (nice 10, as
    /// other background work), so that it is ready when rows of the photo are asked for; an
    /// asker that comes first waits for this pass. `stop` ends it early.
    func warm(_ source: PhotoSource, stop: RenderStop? = nil) {
        Thread.detachNewThread { [self] in
            System.setCallingThreadNice(10)
            guard let file = try? source.open() else { return }
            defer { file.close() }
            _ = index(descriptor: file.rawValue, stop: stop)
        }
    }

    /// Files whose index (or failure) is kept or being made.
    var count: Int { state.withLock { $0.entries.count } }
}
