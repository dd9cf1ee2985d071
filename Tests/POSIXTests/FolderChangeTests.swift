import Foundation
import Glibc
import POSIX
import XCTest

/// The calls that change a folder by names relative to it: each answers with the errno the
/// photos folder's writer tells apart, and none of them goes through a link at the name.
final class FolderChangeTests: XCTestCase {
    func testNamesChangeRelativeToTheFolderAndNeverThroughALink() throws {
        let root = NSTemporaryDirectory() + "folder-changes-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
        try FileSystem.makeDirectory(root)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let folder = try FileDescriptor.open(root, OpenFlags.readOnly | OpenFlags.directory)
        defer { folder.close() }
        func failure(_ body: () throws -> Void) -> Int32? {
            do { try body() } catch { return (error as? SystemCallError)?.errno }
            return nil
        }

        try folder.makeDirectory("a")
        XCTAssertEqual(failure { try folder.makeDirectory("a") }, EEXIST)
        let file = try folder.open("a/photo.jpg", OpenFlags.writeOnly | OpenFlags.create | OpenFlags.exclusive, permissions: 0o600)
        try [UInt8](repeating: 7, count: 10).withUnsafeBytes { try file.write($0) }
        try file.synchronize()
        file.close()
        XCTAssertEqual(try folder.status(of: "a/photo.jpg").st_mode & 0o777, 0o600)
        XCTAssertEqual(failure { _ = try folder.open("a/photo.jpg", OpenFlags.writeOnly | OpenFlags.create | OpenFlags.exclusive) }, EEXIST)

        // A further name of the same file, never over an existing one.
        try folder.link("a/photo.jpg", into: folder, as: "b.jpg")
        XCTAssertEqual(try folder.status(of: "b.jpg").inode, try folder.status(of: "a/photo.jpg").inode)
        XCTAssertEqual(failure { try folder.link("a/photo.jpg", into: folder, as: "b.jpg") }, EEXIST)
        // A link at the name is linked itself, not what it points at.
        XCTAssertEqual(symlink("a/photo.jpg", root + "/link"), 0)
        try folder.link("link", into: folder, as: "link2")
        XCTAssertEqual(try folder.status(of: "link2").fileKind, .symbolicLink)

        try folder.rename("b.jpg", into: folder, as: "c.jpg")
        XCTAssertFalse(FileSystem.exists(root + "/b.jpg"))
        XCTAssertTrue(FileSystem.isReadable(root + "/c.jpg"))

        // An absolute name from the working directory into the folder.
        try FileDescriptor.currentDirectory.link(root + "/c.jpg", into: folder, as: "d.jpg")
        XCTAssertEqual(try folder.status(of: "d.jpg").size, 10)

        XCTAssertEqual(failure { try folder.removeDirectory("a") }, ENOTEMPTY)
        XCTAssertEqual(failure { try folder.removeFile("a") }, EISDIR)
        try folder.removeFile("a/photo.jpg")
        try folder.removeDirectory("a")
        XCTAssertEqual(failure { try folder.removeFile("a/photo.jpg") }, ENOENT)
        try folder.removeFile("link")  // the link, not the file it pointed at
        XCTAssertTrue(FileSystem.exists(root + "/c.jpg"))
        XCTAssertFalse(FileSystem.exists(root + "/missing"))
        try folder.synchronize()
    }
}
