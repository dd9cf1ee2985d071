import Foundation
import Synchronization

/// Files tests make the same way every time (a photo drawn and encoded by the `vips` command:
/// seconds of CPU for a large one), made once per test run and used by all its processes.
///
/// scripts/unit-test.py runs every class, and the slow classes every test, in a process of its
/// own, so a file kept in memory or in a test's folder is made again by the next test. A shared
/// file lives in `PHOTOSCROLL_TEST_RUN_DIRECTORY/fixtures` (one folder for the processes of a
/// run); without that variable (`swift test`) in a folder of this process's own, removed at exit.
///
/// A name says everything its file depends on (size, quality, restart markers, the noise's
/// spread…): two recipes never share a name, and a name is made by one recipe only. A recipe
/// with random parts (noise) is drawn once per run, so every file made from the same shared
/// file (`path` inside another `make`) holds the same draw, as files made in one test did.
public enum SharedFixture {
    /// The run's file `name`, made by `make` if no process of the run has made it yet. `make`
    /// writes the file at the path it is given (a name ending as `name` does, so a tool that
    /// picks the format from the extension picks the same one); it is published whole, linked
    /// into place only once written, so no process sees half of it. One process makes a name at
    /// a time: the others wait for its file rather than making their own. For reading only: a
    /// test that may write, rename or index the file by its identity takes a `copy`.
    public static func path(_ name: String, make: (String) throws -> Void) throws -> String {
        precondition(!name.isEmpty && !name.contains("/") && !name.hasPrefix("."), "a plain file name: \(name)")
        let folder = try folder.get()
        let published = folder + "/" + name
        if access(published, F_OK) == 0 { return published }
        let lock = open(published + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard lock >= 0 else { throw SharedFixtureError("cannot open \(published).lock: errno \(errno)") }
        defer { close(lock) }  // and with it the lock
        while flock(lock, LOCK_EX) != 0 {
            guard errno == EINTR else { throw SharedFixtureError("cannot lock \(published).lock: errno \(errno)") }
        }
        // Made by another process while this one waited.
        if access(published, F_OK) == 0 { return published }
        let staging = folder + "/.making-\(getpid())-\(counter.add(1, ordering: .relaxed).newValue)-" + name
        unlink(staging)
        do {
            try make(staging)
        } catch {
            unlink(staging)
            throw error
        }
        guard access(staging, F_OK) == 0 else { throw SharedFixtureError("making \(name) wrote no file") }
        // Never over a file already there (a maker that did not take the lock): the first stays.
        if link(staging, published) != 0 && errno != EEXIST {
            let failed = errno
            unlink(staging)
            throw SharedFixtureError("cannot publish \(published): errno \(failed)")
        }
        unlink(staging)
        return published
    }

    /// A copy of the run's file `name` (see `path`) at `destination`, the test's own: a file of
    /// its own (inode, times) that it may change as it likes. `destination`.
    @discardableResult
    public static func copy(_ name: String, to destination: String, make: (String) throws -> Void) throws -> String {
        try copyFile(path(name, make: make), to: destination)
        return destination
    }

    /// Copies `source` to `destination` (replacing it) with plain reads and writes, no fsync.
    /// The copy appears whole: written beside under a hidden name, then renamed into place (a
    /// library watching the folder never sees half a photo).
    public static func copyFile(_ source: String, to destination: String) throws {
        let folder = (destination as NSString).deletingLastPathComponent
        let staging = (folder.isEmpty ? "" : folder + "/") + ".copy-\(getpid())-\(counter.add(1, ordering: .relaxed).newValue)"
        do {
            try copyBytes(source, to: staging)
        } catch {
            unlink(staging)
            throw error
        }
        guard rename(staging, destination) == 0 else {
            let failed = errno
            unlink(staging)
            throw SharedFixtureError("cannot rename a copy to \(destination): errno \(failed)")
        }
    }

    private static func copyBytes(_ source: String, to destination: String) throws {
        let from = open(source, O_RDONLY | O_CLOEXEC)
        guard from >= 0 else { throw SharedFixtureError("cannot open \(source): errno \(errno)") }
        defer { close(from) }
        let to = open(destination, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard to >= 0 else { throw SharedFixtureError("cannot create \(destination): errno \(errno)") }
        defer { close(to) }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        try buffer.withUnsafeMutableBytes { raw in
            while true {
                let n = read(from, raw.baseAddress!, raw.count)
                if n < 0 && errno == EINTR { continue }
                guard n >= 0 else { throw SharedFixtureError("cannot read \(source): errno \(errno)") }
                if n == 0 { return }
                var offset = 0
                while offset < n {
                    let w = write(to, raw.baseAddress! + offset, n - offset)
                    if w < 0 && errno == EINTR { continue }
                    guard w > 0 else { throw SharedFixtureError("cannot write \(destination): errno \(errno)") }
                    offset += w
                }
            }
        }
    }

    private static let counter = Atomic<Int>(0)

    /// The run's folder, or this process's own when the tests run without a runner.
    private static let folder: Result<String, SharedFixtureError> = {
        let run = ProcessInfo.processInfo.environment["PHOTOSCROLL_TEST_RUN_DIRECTORY"] ?? ""
        let folder = run.isEmpty ? NSTemporaryDirectory() + "photoscroll-fixtures-\(getpid())" : run + "/fixtures"
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            return .failure(SharedFixtureError("cannot make \(folder): \(error)"))
        }
        if run.isEmpty {
            ownFolder.withLock { $0 = folder }
            atexit {
                if let folder = SharedFixture.ownFolder.withLock({ $0 }) { try? FileManager.default.removeItem(atPath: folder) }
            }
        }
        return .success(folder)
    }()

    private static let ownFolder = Mutex<String?>(nil)
}
