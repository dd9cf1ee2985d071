import Foundation
import HTTP
import Library
import Synchronization
import TestSupport
import Uploads
import XCTest
@testable import App

/// A disk that fills mid-upload: a clear 507, nothing in the photos folder, and the upload goes
/// on from where it stopped once there is room. The full disk is a file-size limit
/// (`RLIMIT_FSIZE`), which makes a write fail with EFBIG exactly as ENOSPC would.
final class UploadDiskFullTests: XCTestCase {
    func testAFullDiskIsAClearErrorAndTheUploadResumesOnceThereIsRoom() throws {
        let server = try UploadTestServer()
        defer { server.stop() }
        let photo = try UploadFixtures.jpeg(width: 1600, height: 1200, seed: 51)
        XCTAssertGreaterThan(photo.count, 300 * 1024)
        let location = try server.create(length: photo.count)
        signal(SIGXFSZ, SIG_IGN)
        var old = rlimit()
        getrlimit(Int32(RLIMIT_FSIZE.rawValue), &old)
        var small = old
        small.rlim_cur = 256 * 1024
        setrlimit(Int32(RLIMIT_FSIZE.rawValue), &small)
        let full = try server.tus(.PATCH, location, [("Upload-Offset", "0")], body: photo)
        setrlimit(Int32(RLIMIT_FSIZE.rawValue), &old)
        XCTAssertEqual(full.status, 507, full.text)
        XCTAssertNotNil(full.headers["Retry-After"])
        XCTAssertTrue(full.text.contains("disk is full"), full.text)
        XCTAssertEqual(server.photoFiles(), [], "nothing half-written in the photos folder")
        var offset = -1
        XCTAssertTrue(try eventually(timeout: 30) {
            offset = try server.tus(.HEAD, location).headers["Upload-Offset"].flatMap(Int.init) ?? -1
            return offset == 256 * 1024
        }, "the bytes that fit are kept: \(offset)")
        let rest = try server.tus(.PATCH, location, [("Upload-Offset", String(offset))], body: Array(photo[offset...]))
        XCTAssertEqual(rest.status, 204, rest.text)
        let stored = try XCTUnwrap(server.photoFiles().first)
        XCTAssertEqual([UInt8](try Data(contentsOf: URL(fileURLWithPath: server.photos + "/" + stored))), photo)
    }
}
