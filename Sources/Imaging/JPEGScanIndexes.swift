import Foundation
import POSIX
import Synchronization

/// The scan indexes of the last few JPEGs without restart markers whose rows were cut into bands,
/// the least recently used going first. An index takes one pass over the whole file (seconds for
/// a gigapixel photo) and is worth keeping only while the photo's pyramid is being built; it is
/// about 100 kB, so a few cost nothing. Each belongs to one version of one file, known by the
/// identity of the open file (device, inode, size, modification time): a file rewritten in place
/// gets an index of its own. One pass per file at a time, on a thread of its own: whoever asks
/// while it runs waits only until it has recorded the rows they want, not for the whole file.
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

    /// One pass over a file, which its askers wait for as far as each needs it.
    // @unchecked Sendable: `index` and `outcome` are guarded by `condition`.
    private final class Pass: @unchecked Sendable {
        enum Outcome { case running, whole, ended }

        let condition = NSCondition()
        /// Set when the file's entry makes room for another's: no asker can find the pass any
        /// more, so it ends at its next row instead of reading the rest of the file for nobody.
        let evicted = Atomic<Bool>(false)
        /// The index as far as the pass has made it: nil before its headers are read, and again
        /// once the pass failed or was stopped, so that no asker is handed a half index after.
        var index: JPEGScanIndex?
        var outcome = Outcome.running

        /// The pass recorded one more row: its askers look again.
        func advanced(_ index: JPEGScanIndex) {
            condition.lock()
            self.index = index
            condition.broadcast()
            condition.unlock()
        }

        /// The pass is over: `.whole`, or `.ended` (failed or stopped) before the end.
        func end(_ outcome: Outcome) {
            condition.lock()
            self.outcome = outcome
            if outcome == .ended { index = nil }
            condition.broadcast()
            condition.unlock()
        }

        /// The index once it cuts a band holding the image's rows `rows` (nil: once it is whole);
        /// nil when the pass fails or is stopped first.
        func wait(for rows: Range<Int>?) -> JPEGScanIndex? {
            condition.lock()
            defer { condition.unlock() }
            while outcome == .running, !(rows.flatMap { rows in index?.covers(rows) } ?? false) { condition.wait() }
            return outcome == .ended ? nil : index
        }
    }

    /// What is known of one file: its pass, running or done.
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
    private let started = Atomic<Int>(0)
    /// Called on a pass's thread with the row starts it has recorded, after each one and before
    /// it reads on (tests hold a pass there).
    private let afterRecording: (@Sendable (_ recorded: Int) -> Void)?

    /// The process's indexes: the renderer's static functions share them.
    static let shared = JPEGScanIndexes(capacity: 4)

    /// A set keeping what it knows of up to `capacity` files.
    init(capacity: Int, afterRecording: (@Sendable (_ recorded: Int) -> Void)? = nil) {
        self.capacity = max(1, capacity)
        self.afterRecording = afterRecording
    }

    /// The index of the JPEG open on `descriptor` (which stays the caller's) once it cuts a band
    /// holding the image's rows `rows` (nil: once it is whole): kept, made by the pass running
    /// now, or by one started here under `stop`, which goes on after this returns. Nil when the
    /// file is not one the index takes, or the pass failed on it (that is kept too) before those
    /// rows. A pass ended by `stop` is not kept: the next asker starts a new one.
    func index(descriptor: Int32, holding rows: Range<Int>? = nil, stop: RenderStop? = nil) -> JPEGScanIndex? {
        pass(descriptor: descriptor, stop: stop, lowered: false)?.wait(for: rows)
    }

    /// Starts the index of `source` at a lowered priority (nice 10, as other background work), so
    /// that it is ready when rows of the photo are asked for; an asker that comes after this
    /// returns waits for this pass, as far as its rows. `stop` ends it early.
    func warm(_ source: PhotoSource, stop: RenderStop? = nil) {
        guard let file = try? source.open() else { return }
        defer { file.close() }
        _ = pass(descriptor: file.rawValue, stop: stop, lowered: true)
    }

    /// The pass over the file open on `descriptor`: the one kept or running, or one started here.
    private func pass(descriptor: Int32, stop: RenderStop?, lowered: Bool) -> Pass? {
        // A file the index never takes (progressive, 12-bit, with restarts) is told by its
        // headers alone: it takes no place among the files kept.
        guard JPEGScanIndex.indexes(descriptor: descriptor),
              let status = try? FileDescriptor(rawValue: descriptor).status() else { return nil }
        let identity = FileIdentity(status)
        let (pass, starts, evicted) = state.withLock { state -> (Pass, Bool, Pass?) in
            state.clock += 1
            if var entry = state.entries[identity] {
                entry.used = state.clock
                state.entries[identity] = entry
                return (entry.pass, false, nil)
            }
            let pass = Pass()
            state.entries[identity] = Entry(pass: pass, used: state.clock)
            var evicted: Pass?
            if state.entries.count > capacity, let oldest = state.entries.min(by: { $0.value.used < $1.value.used })?.key {
                evicted = state.entries.removeValue(forKey: oldest)?.pass
            }
            return (pass, true, evicted)
        }
        // A pass still running for a file let go ends: passes started by askers who have their
        // rows run on by themselves, and without this a client asking one row of photo after
        // photo would leave a pass over each whole file running behind it. At most `capacity`
        // passes run at a time.
        evicted?.evicted.store(true, ordering: .relaxed)
        guard starts else { return pass }
        started.add(1, ordering: .relaxed)
        // The pass outlives the asker that starts it (who waits only for its own rows): it reads
        // a descriptor of its own of the same open file, so the file it indexes is the one known
        // by `identity` whatever happens to the path meanwhile.
        guard let file = try? FileDescriptor(rawValue: descriptor).duplicate() else {
            forget(pass, identity)
            pass.end(.ended)
            return pass
        }
        Thread.detachNewThread { [self] in
            if lowered { System.setCallingThreadNice(10) }
            defer { file.close() }
            run(pass, identity: identity, descriptor: file.rawValue, stop: stop)
        }
        return pass
    }

    /// The pass itself, one row start after another, each handed to the askers as it comes.
    private func run(_ pass: Pass, identity: FileIdentity, descriptor: Int32, stop: RenderStop?) {
        do {
            let index = try JPEGScanIndex(headersOf: descriptor)
            var whole = false
            while !whole {
                if pass.evicted.load(ordering: .relaxed) {
                    // Let go of: its askers (if any still wait) decode their rows without it.
                    pass.end(.ended)
                    return
                }
                whole = try index.advance(descriptor: descriptor, stop: stop)
                pass.advanced(index)
                afterRecording?(index.recorded)
            }
            pass.end(.whole)
        } catch {
            // Stopped, not failed: forgotten before its askers hear of it, so that the next one
            // tries again. A failure is kept: the file is not read through again for every row.
            if stop?.reason != nil { forget(pass, identity) }
            pass.end(.ended)
        }
    }

    private func forget(_ pass: Pass, _ identity: FileIdentity) {
        state.withLock { state in
            if state.entries[identity]?.pass === pass { state.entries[identity] = nil }
        }
    }

    /// Files whose index (or failure) is kept or being made.
    var count: Int { state.withLock { $0.entries.count } }

    /// Passes started since this set was made (tests tell by it whose pass served them).
    var passesStarted: Int { started.load(ordering: .relaxed) }
}
