import Foundation
import Glibc
import Imaging
@testable import Library
import Observability
import POSIX
import TestSupport
import XCTest

/// A photos folder built to hurt: links out (to /etc/shadow, to /), loops, FIFOs, sockets and
/// devices named as photos, 255-byte names, names that are not UTF-8, 1,000 levels of folders,
/// 200,000 entries in one folder. The photos in it are listed, nothing outside it is, and
/// nothing hangs.
final class HostileFolderTests: XCTestCase {
    /// The paths a scan of `hostile` must list, and nothing else.
    struct Hostile {
        var listed: Set<String>
        var chainDepth: Int
    }

    private func link(_ path: String, to target: String) throws {
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target)
    }

    /// Nested folders `name/name/…` `depth` deep below `start`, made with mkdirat (no path
    /// gets long); returns a descriptor of the deepest, and calls `at` with each level's.
    private func chain(below start: String, name: String, depth: Int, at: (Int, FileDescriptor) -> Void = { _, _ in }) throws {
        var folder = try FileDescriptor.open(start, O_RDONLY | O_DIRECTORY)
        for level in 1...depth {
            XCTAssertEqual(mkdirat(folder.rawValue, name, 0o755), 0)
            let next = try folder.open(name, O_RDONLY | O_DIRECTORY)
            folder.close()
            folder = next
            at(level, folder)
        }
        folder.close()
    }

    private func fake(in folder: FileDescriptor, _ name: String) {
        let fd = openat(folder.rawValue, name, O_CREAT | O_WRONLY | O_CLOEXEC, 0o644)
        let text = "fake 300x200\n"
        _ = Glibc.write(fd, text, text.utf8.count)
        close(fd)
    }

    func makeHostile(_ folders: Folders) throws -> Hostile {
        let photos = folders.photos
        let outside = (folders.photos as NSString).deletingLastPathComponent
        FileManager.default.createFile(atPath: outside + "/secret.txt", contents: Data("fake 10x10\nsecret".utf8))
        var listed: Set<String> = []
        func photo(_ path: String) {
            folders.fake(path, 300, 200)
            listed.insert(path)
        }
        photo("a.jpg")
        photo("trips/b.jpg")
        let longFolder = String(repeating: "f", count: 255)
        photo(longFolder + "/c.jpg")
        photo(String(repeating: "p", count: 251) + ".jpg")
        folders.fake(".hidden/h.jpg", 300, 200)

        // Links out of the folder: never listed, never followed.
        try link(photos + "/shadow.jpg", to: "/etc/shadow")
        try link(photos + "/secret.jpg", to: outside + "/secret.txt")
        try link(photos + "/up.jpg", to: "../secret.txt")
        try link(photos + "/everything", to: "/")
        try link(photos + "/trips/root", to: "/")
        // Loops.
        try link(photos + "/here", to: ".")
        try link(photos + "/trips/up", to: "..")
        try link(photos + "/ping.jpg", to: "pong.jpg")
        try link(photos + "/pong.jpg", to: "ping.jpg")
        // Links that stay inside: what they lead to is listed once, where it is; a link to a
        // photo listed nowhere else (in a hidden folder) is the photo.
        try link(photos + "/alias", to: "trips")
        try link(photos + "/b-again.jpg", to: "trips/b.jpg")
        try link(photos + "/hidden-photo.jpg", to: ".hidden/h.jpg")
        listed.insert("hidden-photo.jpg")
        try link(photos + "/nothing.jpg", to: "gone.jpg")

        // Things named as photos that are no files.
        XCTAssertEqual(mkfifo(photos + "/fifo.jpg", 0o644), 0)
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let socketPath = photos + "/socket.jpg"
        withUnsafeMutableBytes(of: &address.sun_path) { bytes in
            for (i, byte) in socketPath.utf8.prefix(bytes.count - 1).enumerated() { bytes[i] = byte }
        }
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        close(listener)
        _ = mknod(photos + "/device.jpg", S_IFCHR | 0o644, dev_t((1 << 8) | 3))  // needs root; fine without

        // A name that is not UTF-8.
        let root = try FileDescriptor.open(photos, O_RDONLY | O_DIRECTORY)
        let badName = Array("bad-".utf8) + [0xFF, 0xFE] + Array(".jpg".utf8) + [0]
        let fd = badName.withUnsafeBufferPointer { openat(root.rawValue, UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), O_CREAT | O_WRONLY, 0o644) }
        close(fd)
        root.close()

        // 1,000 levels of folders: photos near the top are listed, those below 64 levels are not.
        let depth = 1000
        var deepPath = "deep"
        try FileManager.default.createDirectory(atPath: photos + "/deep", withIntermediateDirectories: true)
        try chain(below: photos + "/deep", name: "d", depth: depth) { level, folder in
            if level <= 10 { deepPath += "/d" }
            if level == 10 { fake(in: folder, "deep.jpg") }
            if level == 100 { fake(in: folder, "too-deep.jpg") }
        }
        listed.insert(deepPath + "/deep.jpg")
        addTeardownBlock { _ = Glibc.system("rm -rf '\(photos)/deep'") }
        return Hostile(listed: listed, chainDepth: depth)
    }

    func testAHostileFolderIsListedWithoutLeavingItAndSaysWhatItSkipped() throws {
        let folders = try Folders(self, inMemory: true)
        let hostile = try makeHostile(folders)
        let folder = PhotoFolder(root: folders.photos)
        // A loop followed would never end (the runner stops the process); the counts below say
        // each loop and outside link was seen and skipped.
        let listing = folder.listAll()
        XCTAssertEqual(Set(listing.files.map(\.path)), hostile.listed)
        XCTAssertEqual(listing.files.count, hostile.listed.count, "each photo once")
        XCTAssertGreaterThanOrEqual(listing.skipped[.linkOutside] ?? 0, 5, "\(listing.skipped)")
        XCTAssertGreaterThanOrEqual(listing.skipped[.linkLoop] ?? 0, 1, "\(listing.skipped)")
        XCTAssertGreaterThanOrEqual(listing.skipped[.notRegular] ?? 0, 2, "\(listing.skipped)")
        XCTAssertEqual(listing.skipped[.notUTF8], 1)
        XCTAssertEqual(listing.skipped[.tooDeep], 1)
        XCTAssertEqual(listing.skipped[.brokenLink], 1)
        XCTAssertTrue(listing.skippedSummary?.contains("links leading outside the photos folder") ?? false)
        XCTAssertLessThanOrEqual(listing.directories.count, 4 + PhotoFolder.maxDepth + 1, "no folder walked twice, none deeper than the limit")
        XCTAssertFalse(listing.directories.keys.contains { $0.hasPrefix("alias") || $0.hasPrefix("here") || $0.hasPrefix("everything") })
    }

    func testAServerOnAHostileFolderIsReadyWatchingAndListsItsPhotos() throws {
        let folders = try Folders(self, inMemory: true)
        let hostile = try makeHostile(folders)
        let sink = MemoryLogSink()
        let metrics = MetricsRegistry()
        let library = try PhotoLibrary(configuration: LibraryConfiguration(
            photosDirectory: folders.photos, dataDirectory: folders.data, ingestConcurrency: 1, rescanSeconds: 0, settleSeconds: 0),
            renderer: FakeRenderer(), logger: Logger(label: "library", sink: sink), metrics: metrics)
        library.start()
        defer { library.stop(); library.waitForIngest(timeoutSeconds: 30) }
        XCTAssertTrue(eventually(timeout: 30) { library.isReady }, "never ready")
        XCTAssertEqual(Set(library.photos.map(\.relativePath)), hostile.listed)
        XCTAssertTrue(library.isWatching)
        let watched = metrics.render().split(separator: "\n").first { $0.hasPrefix("photoscroll_library_watched_folders ") }
        let count = Int(Double(watched?.split(separator: " ").last ?? "") ?? -1)
        XCTAssertTrue((60...80).contains(count), "the folders of the tree, 64 levels of the chain, nothing outside: \(count)")
        XCTAssertTrue(sink.all.contains { $0.level == .warning && $0.message.contains("not listed") })
        // The watcher sees a photo added at a depth it watches.
        folders.fake("trips/new.jpg", 300, 200)
        XCTAssertTrue(eventually(timeout: 30) { library.catalog.photo(relativePath: "trips/new.jpg") != nil })
    }

    func testAPhotoSwappedForALinkOutIsNoLongerListed() throws {
        let folders = try Folders(self)
        folders.fake("a.jpg", 300, 200)
        FileManager.default.createFile(atPath: folders.data + "/secret.txt", contents: Data("fake 10x10\n".utf8))
        let library = try folders.library(renderer: FakeRenderer())
        library.refresh()
        XCTAssertEqual(library.photos.map(\.relativePath), ["a.jpg"])
        try FileManager.default.removeItem(atPath: folders.photos + "/a.jpg")
        try link(folders.photos + "/a.jpg", to: folders.data + "/secret.txt")
        XCTAssertNil(library.catalog.folder.fingerprint("a.jpg"), "not followed out")
        library.refresh()
        XCTAssertEqual(library.photos, [])
    }

    func testAPhotoSwappedAfterTheScanIsNeitherRenderedNorRead() throws {
        let folders = try Folders(self)
        folders.fake("a.jpg", 300, 200)
        folders.fake("b.jpg", 300, 200)
        FileManager.default.createFile(atPath: folders.data + "/secret.jpg", contents: Data("fake 999x999\nsecret".utf8))
        let renderer = FakeRenderer()
        let library = try folders.library(renderer: renderer)
        library.refresh()
        library.waitForIngest(timeoutSeconds: 30)
        let a = try XCTUnwrap(library.catalog.photo(relativePath: "a.jpg"))
        let b = try XCTUnwrap(library.catalog.photo(relativePath: "b.jpg"))
        XCTAssertEqual(try library.catalog.source(of: a).text(), "fake 300x200\n")

        // A link out, swapped in after the scan: refused at the open, before a byte is read.
        try FileManager.default.removeItem(atPath: folders.photos + "/a.jpg")
        try link(folders.photos + "/a.jpg", to: folders.data + "/secret.jpg")
        XCTAssertThrowsError(try library.catalog.source(of: a).text()) { error in
            XCTAssertTrue("\(error)".contains("leads outside the photos folder"), "\(error)")
        }
        // Every render reads through the same source (the pyramid built before is the file as it was read).
        let source = library.catalog.source(of: a)
        XCTAssertThrowsError(try renderer.thumbnail(source: source))
        XCTAssertThrowsError(try renderer.renderTile(source: source, tile: TileCoordinate(z: 0, x: 0, y: 0)))
        XCTAssertThrowsError(try renderer.buildPyramid(source: source, into: folders.data + "/elsewhere"))
        XCTAssertNil(library.catalog.folder.fingerprint("a.jpg"))

        // Another file of the folder put in its place (a new inode): not the file listed.
        try FileManager.default.removeItem(atPath: folders.photos + "/b.jpg")
        try FileManager.default.linkItem(atPath: folders.data + "/secret.jpg", toPath: folders.photos + "/b.jpg")
        XCTAssertThrowsError(try library.catalog.source(of: b).text()) { error in
            XCTAssertTrue("\(error)".contains("another file than the one listed"), "\(error)")
        }
        // The next scan sees what is there now: the link is gone from the list, the new file is examined anew.
        library.refresh()
        XCTAssertNil(library.catalog.photo(relativePath: "a.jpg"))
        XCTAssertEqual(library.catalog.photo(relativePath: "b.jpg")?.width, 999)
    }

    func testLinksIntoAnExtraRootAreFollowedAndNoFurther() throws {
        let folders = try Folders(self)
        let disk = folders.data + "/other-disk"
        Folders.fake(at: disk + "/2019/x.jpg", 300, 200)
        Folders.fake(at: disk + "/y.jpg", 300, 200)
        try link(disk + "/2019/again", to: "..")
        try link(disk + "/2019/out.jpg", to: "/etc/passwd")
        try link(folders.photos + "/archive", to: disk)
        try link(folders.photos + "/archive-2019", to: disk + "/2019")
        folders.fake("a.jpg", 300, 200)
        func listed(_ extraRoots: [String]) throws -> Set<String> {
            let library = try PhotoLibrary(configuration: LibraryConfiguration(
                photosDirectory: folders.photos, dataDirectory: folders.data + "/data-\(extraRoots.count)", rescanSeconds: 0,
                extraRoots: extraRoots), renderer: FakeRenderer(), logger: .disabled, metrics: .init())
            defer { library.stop(); library.waitForIngest(timeoutSeconds: 30) }
            library.refresh()
            return Set(library.photos.filter { $0.status != .failed }.map(\.relativePath))
        }
        XCTAssertEqual(try listed([]), ["a.jpg"], "no extra root: links out are not followed")
        // Each folder of the extra root once (archive-2019 is 2019 again), nothing beyond it.
        let widened = try listed([disk])
        XCTAssertTrue(widened == ["a.jpg", "archive/y.jpg", "archive/2019/x.jpg"] || widened == ["a.jpg", "archive/y.jpg", "archive-2019/x.jpg"],
                      "\(widened)")
    }

    func testAFolderOf200000EntriesIsListedInSeconds() throws {
        let folders = try Folders(self, inMemory: true)
        let crowded = folders.photos + "/crowded"
        try FileManager.default.createDirectory(atPath: crowded, withIntermediateDirectories: true)
        let folder = try FileDescriptor.open(crowded, O_RDONLY | O_DIRECTORY)
        // Hard links of one file: 200,000 entries for the cost of the names alone.
        fake(in: folder, "entry.txt")
        var made = 0
        for i in 0..<200_000 where linkat(folder.rawValue, "entry.txt", folder.rawValue, "entry-\(i).txt", 0) == 0 { made += 1 }
        XCTAssertEqual(made, 200_000)
        fake(in: folder, "in-the-crowd.jpg")
        folder.close()
        folders.fake("a.jpg", 300, 200)
        addTeardownBlock { _ = Glibc.system("rm -rf '\(crowded)'") }
        let library = try PhotoLibrary(configuration: LibraryConfiguration(
            photosDirectory: folders.photos, dataDirectory: folders.data, ingestConcurrency: 1, rescanSeconds: 0, settleSeconds: 0),
            renderer: FakeRenderer(), logger: .disabled, metrics: .init())
        library.start()
        defer { library.stop(); library.waitForIngest(timeoutSeconds: 30) }
        XCTAssertTrue(eventually(timeout: 30) { library.isReady }, "never ready")
        XCTAssertEqual(Set(library.photos.map(\.relativePath)), ["a.jpg", "crowded/in-the-crowd.jpg"])
    }
}

/// Waits until `condition` holds, for at most `seconds`.
