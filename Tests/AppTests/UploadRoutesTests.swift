import Foundation
import HTTP
import Library
import Synchronization
import TestSupport
import Uploads
import XCTest
@testable import App

/// tus 1.0 over a real socket: an upload in pieces, with checksums, lands in Uploads/YYYY/MM
/// byte for byte and is listed; a cut connection resumes; the same bytes are stored once.
final class UploadRoutesTests: XCTestCase {
    private func start(_ limits: UploadLimits = UploadLimits(maxBytes: 64 << 20, expirySeconds: 3600, perClient: 100)) throws -> UploadTestServer {
        let server = try UploadTestServer(limits: limits)
        addTeardownBlock { server.stop() }
        return server
    }

    private func sha1(_ bytes: [UInt8]) -> String {
        let digest = ChecksumDigestBridge.sha1(bytes)
        return "sha1 " + Data(digest).base64EncodedString()
    }

    func testDiscoveryNamesTheProtocolAndItsLimits() throws {
        let server = try start()
        for path in ["/uploads", "/uploads/"] {
            let answer = try HTTPClient.request(.OPTIONS, url: server.base + path)
            XCTAssertEqual(answer.status, 204, path)
            XCTAssertEqual(answer.headers["Tus-Version"], "1.0.0")
            XCTAssertEqual(answer.headers["Tus-Resumable"], "1.0.0")
            XCTAssertEqual(answer.headers["Tus-Max-Size"], String(64 << 20))
            XCTAssertEqual(answer.headers["Tus-Extension"], "creation,creation-with-upload,termination,checksum,expiration")
            XCTAssertTrue(answer.headers["Tus-Checksum-Algorithm"]?.contains("sha1") ?? false)
        }
    }

    func testAnUploadInPiecesLandsByteForByteAndIsListed() throws {
        let server = try start()
        let photo = try UploadFixtures.jpeg(seed: 7)
        let location = try server.create(length: photo.count, name: "../../etc/passwd")
        XCTAssertTrue(location.hasPrefix("/uploads/"))
        let half = photo.count / 2
        let first = try server.tus(.PATCH, location, [("Upload-Offset", "0"), ("Upload-Checksum", sha1(Array(photo[..<half])))],
                                   body: Array(photo[..<half]))
        XCTAssertEqual(first.status, 204, first.text)
        XCTAssertEqual(first.headers["Upload-Offset"], String(half))
        XCTAssertNotNil(first.headers["Upload-Expires"])
        let head = try server.tus(.HEAD, location)
        XCTAssertEqual(head.headers["Upload-Offset"], String(half))
        XCTAssertEqual(head.headers["Upload-Length"], String(photo.count))
        XCTAssertEqual(head.headers["Cache-Control"], "no-store")
        XCTAssertEqual(server.photoFiles(), [], "nothing shows in the photos folder before the last byte")

        let last = try server.tus(.PATCH, location, [("Upload-Offset", String(half)), ("Upload-Checksum", sha1(Array(photo[half...])))],
                                  body: Array(photo[half...]))
        XCTAssertEqual(last.status, 204, last.text)
        XCTAssertEqual(last.headers["Upload-Offset"], String(photo.count))
        XCTAssertEqual(last.headers["Photo-Duplicate"], "false")
        let id = try XCTUnwrap(last.headers["Photo-ID"].flatMap(Int.init))
        let folder = server.uploads.datedFolder(nil)
        XCTAssertEqual(server.photoFiles(), [folder + "/passwd.jpg"], "the client's folders are gone; the name keeps its last part")
        XCTAssertEqual([UInt8](try Data(contentsOf: URL(fileURLWithPath: server.photos + "/" + folder + "/passwd.jpg"))), photo)
        XCTAssertEqual(server.waitingUploads(), [], "nothing is left in the data folder")
        let record = try HTTPClient.get(url: server.base + "/photos/\(id)")
        XCTAssertEqual(record.status, 200)
        let status = try HTTPClient.get(url: server.base + location)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(status.body)) as? [String: Any])
        XCTAssertEqual(object["complete"] as? Bool, true)
        XCTAssertEqual((object["photo"] as? [String: Any])?["path"] as? String, folder + "/passwd.jpg")
    }

    func testTheSameBytesAreStoredOnceAndTheAnswerPointsAtThem() throws {
        let server = try start()
        let photo = try UploadFixtures.jpeg(seed: 3)
        var ids: [String] = []
        for name in ["first.jpg", "again.jpg"] {
            let answer = try server.tus(.POST, "/uploads", [("Upload-Length", String(photo.count)),
                                                            ("Upload-Metadata", "filename " + Data(name.utf8).base64EncodedString())], body: photo)
            XCTAssertEqual(answer.status, 201, answer.text)
            XCTAssertEqual(answer.headers["Upload-Offset"], String(photo.count))
            ids.append(try XCTUnwrap(answer.headers["Photo-ID"]))
        }
        XCTAssertEqual(ids[0], ids[1])
        XCTAssertEqual(server.photoFiles().count, 1)

        // Two clients sending the same new bytes at the same moment.
        let other = try UploadFixtures.jpeg(seed: 4)
        let locations = try (0..<2).map { _ in try server.create(length: other.count) }
        let answers = Mutex<[HTTPClientResponse]>([])
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            if let answer = try? server.tus(.PATCH, locations[index], [("Upload-Offset", "0")], body: other) {
                answers.withLock { $0.append(answer) }
            }
        }
        let done = answers.withLock { $0 }
        XCTAssertEqual(done.map(\.status), [204, 204])
        XCTAssertEqual(Set(done.compactMap { $0.headers["Photo-Duplicate"] }), ["true", "false"])
        XCTAssertEqual(Set(done.compactMap { $0.headers["Photo-ID"] }).count, 1)
        XCTAssertEqual(server.photoFiles().count, 2, "two different photos, each once")
    }

    func testACutConnectionResumesFromTheServersOffset() throws {
        let server = try start()
        let photo = try UploadFixtures.jpeg(width: 900, height: 700, seed: 11)
        let location = try server.create(length: photo.count)
        // Send a head announcing everything, then only part of it, then hang up.
        let cut = photo.count / 3
        let connection = try HTTPClientConnection(port: server.port)
        try connection.send("PATCH \(location) HTTP/1.1\r\nHost: 127.0.0.1\r\nTus-Resumable: 1.0.0\r\nUpload-Offset: 0\r\n"
            + "Content-Type: application/offset+octet-stream\r\nContent-Length: \(photo.count)\r\n\r\n")
        try connection.send(Array(photo[..<cut]))
        connection.close()
        // Every byte that arrived is kept: HEAD says so once the cut request has let go (a HEAD
        // that overtakes the cut request's start may see less, and the next one more).
        var offset = -1
        XCTAssertTrue(try eventually(timeout: 30) {
            offset = try server.tus(.HEAD, location).headers["Upload-Offset"].flatMap(Int.init) ?? -1
            return offset == cut
        }, "offset \(offset), cut at \(cut)")
        let rest = try server.tus(.PATCH, location, [("Upload-Offset", String(offset))], body: Array(photo[offset...]))
        XCTAssertEqual(rest.status, 204, rest.text)
        let stored = try XCTUnwrap(server.photoFiles().first)
        XCTAssertEqual([UInt8](try Data(contentsOf: URL(fileURLWithPath: server.photos + "/" + stored))), photo)
    }

    func testHostileUploadsGetAClearRefusalAndLeaveNothingBehind() throws {
        let server = try start(UploadLimits(maxBytes: 4 << 20, expirySeconds: 3600, perClient: 100))
        let photo = try UploadFixtures.jpeg(seed: 5)

        // No tus version: 412 naming the one spoken.
        let bare = try HTTPClient.request(.POST, url: server.base + "/uploads", headers: ["Upload-Length": "10"])
        XCTAssertEqual(bare.status, 412)
        XCTAssertEqual(bare.headers["Tus-Version"], "1.0.0")
        // Over the limit: refused before anything is made.
        let large = try server.tus(.POST, "/uploads", [("Upload-Length", String((4 << 20) + 1))])
        XCTAssertEqual(large.status, 413)
        XCTAssertTrue(large.text.contains("maxUploadMegabytes"), large.text)
        XCTAssertEqual(server.waitingUploads(), [])
        // Junk lengths and metadata.
        for fields in [[("Upload-Length", "-1")], [("Upload-Length", "1e9")], [("Upload-Length", "5"), ("Upload-Metadata", "name !!!")]] {
            XCTAssertEqual(try server.tus(.POST, "/uploads", fields).status, 400, "\(fields)")
        }
        XCTAssertEqual(try server.tus(.HEAD, "/uploads/" + String(repeating: "0", count: 32)).status, 404)
        XCTAssertTrue([404, 405].contains(try server.tus(.HEAD, "/uploads/..%2F..%2Fetc%2Fpasswd").status))

        // A wrong checksum: 460, and the offset stays where it was.
        let location = try server.create(length: photo.count)
        let wrong = try server.tus(.PATCH, location, [("Upload-Offset", "0"), ("Upload-Checksum", sha1(Array("not these bytes".utf8)))],
                                   body: Array(photo[..<100]))
        XCTAssertEqual(wrong.status, 460, wrong.text)
        XCTAssertEqual(try server.tus(.HEAD, location).headers["Upload-Offset"], "0")
        XCTAssertEqual(try server.tus(.PATCH, location, [("Upload-Offset", "0"), ("Upload-Checksum", "md5 AAAAAAAAAAAAAAAAAAAAAA==")],
                                      body: [1]).status, 400)
        // An offset that does not match: 409 saying where the upload is.
        let mismatch = try server.tus(.PATCH, location, [("Upload-Offset", "50")], body: Array(photo[50..<100]))
        XCTAssertEqual(mismatch.status, 409)
        XCTAssertEqual(mismatch.headers["Upload-Offset"], "0")
        // More bytes than announced.
        let past = try server.tus(.PATCH, location, [("Upload-Offset", "0")], body: photo + [0, 0])
        XCTAssertEqual(past.status, 413)

        // Not an image, and a PNG bomb: refused at completion, deleted.
        for (bytes, status) in [(Array("#!/bin/sh\nrm -rf /\n".utf8), 415), (UploadFixtures.bombPNG(), 422)] {
            let answer = try server.tus(.POST, "/uploads", [("Upload-Length", String(bytes.count))], body: bytes)
            XCTAssertEqual(answer.status, status, answer.text)
        }
        XCTAssertEqual(server.photoFiles(), [], "nothing reached the photos folder")
        XCTAssertEqual(server.waitingUploads().count, 1, "only the unfinished upload waits")
        // Termination deletes the bytes.
        XCTAssertEqual(try server.tus(.DELETE, location).status, 204)
        XCTAssertEqual(server.waitingUploads(), [])
        XCTAssertEqual(try server.tus(.HEAD, location).status, 404)
    }

    func testAThousandUnfinishedUploadsAreCappedAndExpire() throws {
        let server = try start(UploadLimits(maxBytes: 1 << 20, expirySeconds: 600, perClient: 100))
        let connection = try HTTPClientConnection(port: server.port, timeoutSeconds: 30)
        var statuses: [Int: Int] = [:]
        for _ in 0..<1000 {
            try connection.send("POST /uploads HTTP/1.1\r\nHost: 127.0.0.1\r\nTus-Resumable: 1.0.0\r\nUpload-Length: 1000\r\n\r\n")
            statuses[try connection.readResponse().status, default: 0] += 1
        }
        XCTAssertEqual(statuses, [201: 100, 429: 900])
        XCTAssertEqual(server.waitingUploads().count, 100)
        server.advance(seconds: 601)
        XCTAssertEqual(server.uploads.sweepExpired(), 100)
        XCTAssertEqual(server.waitingUploads(), [])
        XCTAssertEqual(try server.tus(.POST, "/uploads", [("Upload-Length", "10")]).status, 201, "room again")
    }

    func testAnExpiredUploadIsGone() throws {
        let server = try start(UploadLimits(maxBytes: 1 << 20, expirySeconds: 600, perClient: 100))
        let location = try server.create(length: 100)
        server.advance(seconds: 601)
        XCTAssertEqual(try server.tus(.HEAD, location).status, 410)
        XCTAssertEqual(try server.tus(.PATCH, location, [("Upload-Offset", "0")], body: [1]).status, 410)
    }

    func testOnlyThisMachineAndThisSiteMayUpload() throws {
        let server = try start()
        var router = Router()
        UploadRoutes(service: server.uploads).register(on: &router)
        let fromAfar = TestClient(inProcess: router).response(.POST, "/uploads", headers: ["Host": "photos.example", "Tus-Resumable": "1.0.0",
                                                                                           "Upload-Length": "10"], remoteAddress: "203.0.113.9")
        XCTAssertEqual(fromAfar.status, .forbidden)
        let crossSite = try HTTPClient.request(.POST, url: server.base + "/uploads",
                                               headers: ["Tus-Resumable": "1.0.0", "Upload-Length": "10", "Origin": "https://evil.example"])
        XCTAssertEqual(crossSite.status, 403)
        let fetchMetadata = try HTTPClient.request(.POST, url: server.base + "/uploads/form",
                                                   headers: ["Content-Type": "multipart/form-data; boundary=b", "Sec-Fetch-Site": "cross-site"],
                                                   body: Array("--b--\r\n".utf8))
        XCTAssertEqual(fetchMetadata.status, 403)
        XCTAssertEqual(server.waitingUploads(), [])
    }

    /// What the server writes takes the process umask's modes, as `cp` would: a backup or a
    /// file-sharing user of the same folder reads what was uploaded as it reads the rest.
    func testUploadedFilesAndTheirFoldersTakeTheUmasksModes() throws {
        for (mask, file, folder) in [(mode_t(0o022), mode_t(0o644), mode_t(0o755)), (0o002, 0o664, 0o775)] {
            let previous = umask(mask)
            defer { umask(previous) }
            let server = try start()
            let photo = try UploadFixtures.jpeg(seed: 30 + Int(mask))
            let location = try server.create(length: photo.count, name: "shared.jpg")
            let done = try server.tus(.PATCH, location, [("Upload-Offset", "0")], body: photo)
            XCTAssertEqual(done.status, 204, done.text)
            let form = Array("--XyZ\r\nContent-Disposition: form-data; name=\"folder\"\r\n\r\nTrips/Rome\r\n".utf8)
                + Array("--XyZ\r\nContent-Disposition: form-data; name=\"file\"; filename=\"form.jpg\"\r\nContent-Type: image/jpeg\r\n\r\n".utf8)
                + (try UploadFixtures.jpeg(seed: 60 + Int(mask))) + Array("\r\n--XyZ--\r\n".utf8)
            let posted = try HTTPClient.request(.POST, url: server.base + "/uploads/form",
                                                headers: ["Content-Type": "multipart/form-data; boundary=XyZ"], body: form)
            XCTAssertEqual(posted.status, 201, posted.text)
            let dated = server.uploads.datedFolder(nil)
            func mode(_ path: String) throws -> mode_t {
                mode_t(try XCTUnwrap(FileManager.default.attributesOfItem(atPath: server.photos + "/" + path)[.posixPermissions] as? Int))
            }
            XCTAssertEqual(try mode(dated + "/shared.jpg"), file, "umask \(String(mask, radix: 8))")
            XCTAssertEqual(try mode("Trips/Rome/form.jpg"), file)
            XCTAssertEqual(try mode(dated), folder)
            XCTAssertEqual(try mode("Trips/Rome"), folder)
            XCTAssertEqual(try mode("Trips"), folder)
            server.stop()
        }
    }

    func testAPlainFormUploadForScripts() throws {
        let server = try start()
        let photo = try UploadFixtures.jpeg(seed: 21)
        func form(_ name: String, folder: String? = nil) -> [UInt8] {
            var body: [UInt8] = []
            if let folder { body += Array("--XyZ\r\nContent-Disposition: form-data; name=\"folder\"\r\n\r\n\(folder)\r\n".utf8) }
            body += Array("--XyZ\r\nContent-Disposition: form-data; name=\"file\"; filename=\"\(name)\"\r\nContent-Type: image/jpeg\r\n\r\n".utf8)
            return body + photo + Array("\r\n--XyZ--\r\n".utf8)
        }
        let headers: HTTPHeaders = ["Content-Type": "multipart/form-data; boundary=XyZ"]
        let first = try HTTPClient.request(.POST, url: server.base + "/uploads/form", headers: headers, body: form("a.jpg", folder: "Trips/Rome"))
        XCTAssertEqual(first.status, 201, first.text)
        let photos = try XCTUnwrap(first.object["photos"] as? [[String: Any]])
        XCTAssertEqual(photos.first?["path"] as? String, "Trips/Rome/a.jpg")
        XCTAssertNotNil(photos.first?["id"] as? Int)
        XCTAssertEqual([UInt8](try Data(contentsOf: URL(fileURLWithPath: server.photos + "/Trips/Rome/a.jpg"))), photo)
        let again = try HTTPClient.request(.POST, url: server.base + "/uploads/form", headers: headers, body: form("b.jpg"))
        XCTAssertEqual(again.status, 200, again.text)
        XCTAssertEqual((again.object["photos"] as? [[String: Any]])?.first?["duplicate"] as? Bool, true)
        let escape = try HTTPClient.request(.POST, url: server.base + "/uploads/form", headers: headers, body: form("c.jpg", folder: "../outside"))
        XCTAssertEqual(escape.status, 400, escape.text)
        XCTAssertEqual(server.photoFiles(), ["Trips/Rome/a.jpg"])
        XCTAssertEqual(server.waitingUploads(), [])
    }

    func testAFolderLinkedOutOfThePhotosFolderIsNeverWrittenThrough() throws {
        let server = try start()
        let outside = server.root + "/outside"
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: server.photos + "/Uploads", withDestinationPath: outside)
        let photo = try UploadFixtures.jpeg(seed: 31)
        let answer = try server.tus(.POST, "/uploads", [("Upload-Length", String(photo.count))], body: photo)
        XCTAssertEqual(answer.status, 409, answer.text)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: outside), [])
    }
}
