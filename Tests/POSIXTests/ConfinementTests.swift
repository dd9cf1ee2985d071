import Foundation
import Glibc
@testable import POSIX
import XCTest

/// Paths opened beneath a folder and never outside it, by openat2 and by the walk alike.
final class ConfinementTests: XCTestCase {
    private var base = ""

    override func setUpWithError() throws {
        base = NSTemporaryDirectory() + "confinement-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: base + "/root/sub", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: base + "/extra/deeper", withIntermediateDirectories: true)
        write("root/a.jpg", "a")
        write("root/sub/b.jpg", "b")
        write("secret.txt", "secret")
        write("extra/x.jpg", "x")
        write("extra/deeper/y.jpg", "y")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: base)
    }

    private func write(_ path: String, _ text: String) {
        FileManager.default.createFile(atPath: base + "/" + path, contents: Data(text.utf8))
    }

    private func link(_ path: String, to target: String) throws {
        try FileManager.default.createSymbolicLink(atPath: base + "/" + path, withDestinationPath: target)
    }

    private func contents(_ opened: Confinement.Opened) -> String {
        defer { opened.descriptor.close() }
        var buffer = [UInt8](repeating: 0, count: 64)
        let n = (try? buffer.withUnsafeMutableBytes { try opened.descriptor.read(into: $0) }) ?? -1
        return String(decoding: buffer.prefix(max(0, n)), as: UTF8.self)
    }

    /// Both ways of opening: openat2 where it answers (falling back to the walk), and the walk alone.
    private func both(_ confinement: Confinement, _ path: String) -> [Result<String, ConfinementError>] {
        [
            Result { () throws(ConfinementError) in contents(try confinement.openFile(path)) },
            Result { () throws(ConfinementError) in contents(try confinement.walk(path, for: .file).opened) },
        ]
    }

    private func assertOpens(_ confinement: Confinement, _ path: String, _ expected: String, line: UInt = #line) {
        for (way, result) in both(confinement, path).enumerated() {
            switch result {
            case .success(let text): XCTAssertEqual(text, expected, "\(path), way \(way)", line: line)
            case .failure(let error): XCTFail("\(path), way \(way): \(error)", line: line)
            }
        }
    }

    private func assertRefused(_ confinement: Confinement, _ path: String, line: UInt = #line,
                               _ check: (ConfinementError) -> Bool) {
        for (way, result) in both(confinement, path).enumerated() {
            switch result {
            case .success(let text): XCTFail("\(path), way \(way) opened: \(text)", line: line)
            case .failure(let error): XCTAssertTrue(check(error), "\(path), way \(way): \(error)", line: line)
            }
        }
    }

    func testLinksThatStayInsideAreFollowedAndNoOtherIs() throws {
        try link("root/in.jpg", to: "sub/b.jpg")
        try link("root/sub/back.jpg", to: "../a.jpg")
        try link("root/absolute-in.jpg", to: base + "/root/sub/b.jpg")
        try link("root/shadow.jpg", to: "/etc/shadow")
        try link("root/secret.jpg", to: base + "/secret.txt")
        try link("root/up.jpg", to: "../secret.txt")
        try link("root/everything", to: "/")
        try link("root/loop.jpg", to: "loop.jpg")
        try link("root/ping.jpg", to: "pong.jpg")
        try link("root/pong.jpg", to: "ping.jpg")
        let confinement = Confinement(root: base + "/root")

        assertOpens(confinement, "a.jpg", "a")
        assertOpens(confinement, "sub/b.jpg", "b")
        assertOpens(confinement, "in.jpg", "b")
        assertOpens(confinement, "sub/back.jpg", "a")
        assertOpens(confinement, "absolute-in.jpg", "b")
        assertOpens(confinement, "sub/../a.jpg", "a")
        for path in ["shadow.jpg", "secret.jpg", "up.jpg", "everything/etc/passwd", "../secret.txt", "sub/../../secret.txt"] {
            assertRefused(confinement, path) { if case .outside = $0 { true } else { false } }
        }
        for path in ["loop.jpg", "ping.jpg"] {
            assertRefused(confinement, path) { if case .tooManyLinks = $0 { true } else { false } }
        }
        assertRefused(confinement, "missing.jpg") { $0.isMissing }
        assertRefused(confinement, "sub") { if case .notOfKind = $0 { true } else { false } }
        XCTAssertThrowsError(try confinement.openDirectory("everything"))
        XCTAssertThrowsError(try confinement.status("shadow.jpg"))
        XCTAssertEqual(try confinement.status("in.jpg").st_size, 1)
    }

    func testWhereALinkLeadsIsKnownByItsRealNames() throws {
        try link("root/in.jpg", to: "sub/../sub/b.jpg")
        try link("root/here", to: ".")
        try link("root/archive", to: base + "/extra")
        let confinement = Confinement(root: base + "/root", extraRoots: [base + "/extra"])
        func location(_ path: String) throws -> Confinement.Location {
            let (opened, location) = try confinement.resolve(path)
            opened.descriptor.close()
            return location
        }
        XCTAssertEqual(try location("in.jpg"), Confinement.Location(root: 0, components: ["sub", "b.jpg"]))
        XCTAssertEqual(try location("here"), Confinement.Location(root: 0, components: []))
        XCTAssertEqual(try location("here/here/sub"), Confinement.Location(root: 0, components: ["sub"]))
        XCTAssertEqual(try location("archive/deeper/y.jpg"), Confinement.Location(root: 1, components: ["deeper", "y.jpg"]))
    }

    func testExtraRootsAreTheOnlyWayOut() throws {
        try link("root/archive", to: base + "/extra")
        try link("root/relative-archive", to: "../extra/deeper")
        try link("extra/escape.jpg", to: "../secret.txt")
        try link("extra/home.jpg", to: "../root/a.jpg")
        let confined = Confinement(root: base + "/root")
        let widened = Confinement(root: base + "/root", extraRoots: [base + "/extra"])

        assertRefused(confined, "archive/x.jpg") { if case .outside = $0 { true } else { false } }
        assertOpens(widened, "archive/x.jpg", "x")
        assertOpens(widened, "relative-archive/y.jpg", "y")
        assertOpens(widened, "archive/home.jpg", "a")
        assertRefused(widened, "archive/escape.jpg") { if case .outside = $0 { true } else { false } }
        assertRefused(widened, "archive/../secret.txt") { if case .outside = $0 { true } else { false } }
    }

    func testALinkSwappedInAfterTheFileWasSeenIsNotFollowed() throws {
        let confinement = Confinement(root: base + "/root")
        let before = try confinement.status("a.jpg")
        XCTAssertEqual(before.kind, S_IFREG)
        try FileManager.default.removeItem(atPath: base + "/root/a.jpg")
        try link("root/a.jpg", to: base + "/secret.txt")
        assertRefused(confinement, "a.jpg") { if case .outside = $0 { true } else { false } }
        // A folder on the way swapped for a link out is refused as well.
        try FileManager.default.moveItem(atPath: base + "/root/sub", toPath: base + "/moved")
        try link("root/sub", to: base + "/moved")
        assertRefused(confinement, "sub/b.jpg") { if case .outside = $0 { true } else { false } }
    }

    func testFIFOsSocketsAndDevicesAreNeverOpened() throws {
        XCTAssertEqual(mkfifo(base + "/root/fifo.jpg", 0o644), 0)
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let socketPath = base + "/root/socket.jpg"
        withUnsafeMutableBytes(of: &address.sun_path) { bytes in
            for (i, byte) in socketPath.utf8.prefix(bytes.count - 1).enumerated() { bytes[i] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        XCTAssertEqual(bound, 0)
        // A device node needs root; where it can be made it is refused like the others.
        let device = mknod(base + "/root/device.jpg", S_IFCHR | 0o644, dev_t((1 << 8) | 3)) == 0
        let confinement = Confinement(root: base + "/root")
        // Opening the FIFO to read would wait for a writer for ever: should anything open it, a
        // writer comes after half a minute, so the test fails instead of hanging.
        let finished = DispatchSemaphore(value: 0), unblocked = DispatchSemaphore(value: 0)
        let fifo = base + "/root/fifo.jpg"
        DispatchQueue.global().async {
            guard finished.wait(timeout: .now() + 30) == .timedOut else { return }
            unblocked.signal()
            let writer = open(fifo, O_WRONLY | O_NONBLOCK)
            if writer >= 0 { close(writer) }
        }
        for path in ["fifo.jpg", "socket.jpg"] + (device ? ["device.jpg"] : []) {
            assertRefused(confinement, path) { if case .notOfKind = $0 { true } else { false } }
        }
        finished.signal()
        XCTAssertEqual(unblocked.wait(timeout: .now()), .timedOut, "something blocked on the FIFO")
    }

    func testPathsLongerThanPathMaxAreWalked() throws {
        let name = String(repeating: "n", count: 200)
        var folder = try FileDescriptor.open(base + "/root", O_RDONLY | O_DIRECTORY)
        for _ in 0..<25 {
            XCTAssertEqual(mkdirat(folder.rawValue, name, 0o755), 0)
            let next = try folder.open(name, O_RDONLY | O_DIRECTORY)
            folder.close()
            folder = next
        }
        let file = openat(folder.rawValue, "deep.jpg", O_CREAT | O_WRONLY | O_CLOEXEC, 0o644)
        XCTAssertGreaterThanOrEqual(file, 0)
        _ = Glibc.write(file, "deep", 4)
        close(file)
        folder.close()
        let path = Array(repeating: name, count: 25).joined(separator: "/") + "/deep.jpg"
        XCTAssertGreaterThan(path.utf8.count, Int(PATH_MAX))
        assertOpens(Confinement(root: base + "/root"), path, "deep")
        // Remove it the same way: FileManager cannot reach that deep by path.
        XCTAssertEqual(Glibc.system("rm -rf '\(base)/root/\(name)'"), 0)
    }

    func testEntryNamesAreReadInPlaceWhateverTheirBytes() throws {
        let long = String(repeating: "L", count: 255)
        write("root/" + long, "")
        let notUTF8: [UInt8] = Array("bad-".utf8) + [0xFF, 0xFE] + Array(".jpg".utf8)
        let created = notUTF8.withUnsafeBufferPointer { bytes -> Int32 in
            let path = Array((base + "/root/").utf8) + Array(bytes) + [0]
            return path.withUnsafeBufferPointer { creat(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), 0o644) }
        }
        XCTAssertGreaterThanOrEqual(created, 0)
        close(created)
        let root = try FileDescriptor.open(base + "/root", O_PATH | O_DIRECTORY)
        defer { root.close() }
        var names: [String] = []
        var undecodable: [[UInt8]] = []
        try root.forEachEntry { entry in
            if let text = entry.text { names.append(text) } else { undecodable.append(Array(entry.name)) }
            return true
        }
        XCTAssertEqual(Set(names), ["a.jpg", "sub", long])
        XCTAssertEqual(undecodable, [notUTF8])
    }
}
