import Foundation
import HTTP
import Imaging
@testable import Library
import Observability
import XCTest
@testable import App

/// GET /photos/:id/original over a real socket: the bytes on disk, named as the file is, with
/// ranges and conditional requests, and nothing at all when the owner turns downloads off.
final class PhotoOriginalTests: XCTestCase {
    struct Running {
        let base: String
        let service: PhotoService
        let photos: String

        func id(_ relativePath: String) throws -> Int {
            try XCTUnwrap(service.library.photos.first { $0.relativePath == relativePath }?.id, relativePath)
        }
    }

    private func start(downloadOriginals: Bool = true) throws -> Running {
        let (root, photos) = try makeLiveRoot("photo-original")
        try FileManager.default.createDirectory(atPath: photos + "/trips", withIntermediateDirectories: true)
        try DemoImage.write(to: photos + "/photo one.jpg", width: 300, height: 200, seed: 1)
        try DemoImage.write(to: photos + "/Café ü 東京 \"quoted\".jpg", width: 200, height: 300, seed: 2)
        try DemoImage.write(to: photos + "/trips/beach.png", width: 120, height: 80, seed: 3)
        let live = try startLivePhotoService(root: root) { $0.downloadOriginals = downloadOriginals }
        return Running(base: live.base, service: live.service, photos: photos)
    }

    func testTheBytesOnDiskWithTheirNameTypeAndTag() throws {
        let run = try start()
        for (path, type, disposition) in [
            ("photo one.jpg", "image/jpeg", #"attachment; filename="photo one.jpg"; filename*=UTF-8''photo%20one.jpg"#),
            ("Café ü 東京 \"quoted\".jpg", "image/jpeg",
             #"attachment; filename="Caf_ _ __ 'quoted'.jpg"; filename*=UTF-8''Caf%C3%A9%20%C3%BC%20%E6%9D%B1%E4%BA%AC%20%22quoted%22.jpg"#),
            ("trips/beach.png", "image/png", #"attachment; filename="beach.png"; filename*=UTF-8''beach.png"#),
        ] {
            let answer = try HTTPClient.get(url: run.base + "/photos/\(try run.id(path))/original")
            XCTAssertEqual(answer.status, 200, path)
            XCTAssertEqual(answer.body, [UInt8](try Data(contentsOf: URL(fileURLWithPath: run.photos + "/" + path))), path)
            XCTAssertEqual(answer.headers["Content-Type"], type, path)
            XCTAssertEqual(answer.headers["Content-Disposition"], disposition, path)
            XCTAssertEqual(answer.headers["Accept-Ranges"], "bytes")
            XCTAssertEqual(answer.headers["X-Content-Type-Options"], "nosniff")
            XCTAssertNil(answer.headers["Content-Encoding"], "a photo is sent as it is, never gzipped")
            let tag = try XCTUnwrap(answer.headers["ETag"])
            XCTAssertTrue(tag.hasPrefix("\"") && !tag.hasPrefix("W/"), "a strong tag: \(tag)")
            XCTAssertNotNil(answer.headers["Last-Modified"])
        }
    }

    func testRangesAndConditionalRequests() throws {
        let run = try start()
        let url = run.base + "/photos/\(try run.id("photo one.jpg"))/original"
        let whole = try HTTPClient.get(url: url)
        let tag = try XCTUnwrap(whole.headers["ETag"])
        let size = whole.body.count

        let first = try HTTPClient.request(.GET, url: url, headers: ["Range": "bytes=0-9"])
        XCTAssertEqual(first.status, 206)
        XCTAssertEqual(first.body, Array(whole.body[0..<10]))
        XCTAssertEqual(first.headers["Content-Range"], "bytes 0-9/\(size)")

        let tail = try HTTPClient.request(.GET, url: url, headers: ["Range": "bytes=-100"])
        XCTAssertEqual(tail.status, 206)
        XCTAssertEqual(tail.body, Array(whole.body[(size - 100)...]))

        let resumed = try HTTPClient.request(.GET, url: url, headers: ["Range": "bytes=1000-", "If-Range": tag])
        XCTAssertEqual(resumed.status, 206, "a download resumed against the same file")
        XCTAssertEqual(resumed.body, Array(whole.body[1000...]))

        let outside = try HTTPClient.request(.GET, url: url, headers: ["Range": "bytes=\(size + 10)-"])
        XCTAssertEqual(outside.status, 416)
        XCTAssertEqual(outside.headers["Content-Range"], "bytes */\(size)")

        let cached = try HTTPClient.request(.GET, url: url, headers: ["If-None-Match": tag])
        XCTAssertEqual(cached.status, 304)
        XCTAssertTrue(cached.body.isEmpty)
        XCTAssertEqual(cached.headers["ETag"], tag)

        let head = try HTTPClient.request(.HEAD, url: url)
        XCTAssertEqual(head.status, 200)
        XCTAssertEqual(head.headers["Content-Length"], String(size))
        XCTAssertTrue(head.body.isEmpty)

        // The file changes on disk: a new tag, and a resume against the old one gets the whole new file.
        try DemoImage.write(to: run.photos + "/photo one.jpg", width: 310, height: 200, seed: 9)
        let changed = try HTTPClient.request(.GET, url: url, headers: ["Range": "bytes=1000-", "If-Range": tag])
        XCTAssertEqual(changed.status, 200)
        XCTAssertEqual(changed.body, [UInt8](try Data(contentsOf: URL(fileURLWithPath: run.photos + "/photo one.jpg"))))
        XCTAssertNotEqual(changed.headers["ETag"], tag)
        XCTAssertEqual(try HTTPClient.request(.GET, url: url, headers: ["If-None-Match": tag]).status, 200)
    }

    func testMissingPhotosAndFilesAre404() throws {
        let run = try start()
        XCTAssertEqual(try HTTPClient.get(url: run.base + "/photos/999/original").status, 404)
        XCTAssertEqual(try HTTPClient.get(url: run.base + "/photos/0/original").status, 404)
        let id = try run.id("trips/beach.png")
        try FileManager.default.removeItem(atPath: run.photos + "/trips/beach.png")
        let gone = try HTTPClient.get(url: run.base + "/photos/\(id)/original")
        XCTAssertEqual(gone.status, 404)
        XCTAssertEqual(gone.headers["Content-Type"], "application/problem+json")
        XCTAssertFalse(String(decoding: gone.body, as: UTF8.self).contains(run.photos), "no server path in the answer")
    }

    func testTurnedOffEveryOriginalIs404() throws {
        let run = try start(downloadOriginals: false)
        let answer = try HTTPClient.get(url: run.base + "/photos/\(try run.id("photo one.jpg"))/original")
        XCTAssertEqual(answer.status, 404)
        XCTAssertEqual(answer.headers["Content-Type"], "application/problem+json")
        XCTAssertTrue(String(decoding: answer.body, as: UTF8.self).contains("Originals cannot be downloaded"))
        XCTAssertNil(answer.headers["Content-Disposition"])
    }

    func testContentDispositionNeverCarriesAPathOrAControlCharacter() {
        XCTAssertEqual(ContentDisposition.attachment(filename: "a/b\\c\u{7}.jpg"),
                       #"attachment; filename="a_b_c_.jpg"; filename*=UTF-8''a_b_c_.jpg"#)
        XCTAssertEqual(ContentDisposition.attachment(filename: ".."), #"attachment; filename="download"; filename*=UTF-8''download"#)
        XCTAssertEqual(ContentDisposition.attachment(filename: "100%;x=1.jpg"),
                       #"attachment; filename="100%;x=1.jpg"; filename*=UTF-8''100%25%3Bx%3D1.jpg"#)
    }

    func testOnlyFilesReadAsImagesAreSentWithTheTypeTheirBytesSay() throws {
        let run = try start()
        FileManager.default.createFile(atPath: run.photos + "/notes.jpg", contents: Data("not a photo at all\n".utf8))
        try DemoImage.write(to: run.photos + "/disguised.png", width: 60, height: 40, seed: 4)
        try FileManager.default.moveItem(atPath: run.photos + "/disguised.png", toPath: run.photos + "/disguised.jpg")
        run.service.library.refresh()

        let notes = try HTTPClient.get(url: run.base + "/photos/\(try run.id("notes.jpg"))/original")
        XCTAssertEqual(notes.status, 404, "a file that failed as a photo is never sent")
        XCTAssertNotEqual(notes.body, Array("not a photo at all\n".utf8))
        XCTAssertTrue(String(decoding: notes.body, as: UTF8.self).contains("not an image PhotoScroll could read"))

        let disguised = try HTTPClient.get(url: run.base + "/photos/\(try run.id("disguised.jpg"))/original")
        XCTAssertEqual(disguised.status, 200)
        XCTAssertEqual(disguised.headers["Content-Type"], "image/png", "by its bytes, not its name")
    }

    func testALinkOutSwappedInAfterTheScanIsNotFollowed() throws {
        let run = try start()
        let id = try run.id("photo one.jpg")
        XCTAssertEqual(try HTTPClient.get(url: run.base + "/photos/\(id)/original").status, 200)
        let secret = (run.photos as NSString).deletingLastPathComponent + "/shadow"
        FileManager.default.createFile(atPath: secret, contents: Data("root:$6$secret:19000::::::\n".utf8))
        try FileManager.default.removeItem(atPath: run.photos + "/photo one.jpg")
        try FileManager.default.createSymbolicLink(atPath: run.photos + "/photo one.jpg", withDestinationPath: secret)
        let answer = try HTTPClient.get(url: run.base + "/photos/\(id)/original")
        XCTAssertEqual(answer.status, 404)
        XCTAssertNotEqual(answer.body, [UInt8](try Data(contentsOf: URL(fileURLWithPath: secret))))
    }

    func testAFIFOSwappedInIsNeverOpened() throws {
        let run = try start()
        let id = try run.id("trips/beach.png")
        try FileManager.default.removeItem(atPath: run.photos + "/trips/beach.png")
        XCTAssertEqual(mkfifo(run.photos + "/trips/beach.png", 0o644), 0)
        // An open of the FIFO would wait for a writer for ever, so an answer within the client's
        // half minute says nothing waited on it.
        let answer = try HTTPClient.get(url: run.base + "/photos/\(id)/original", timeoutSeconds: 30)
        XCTAssertEqual(answer.status, 404)
        // Its thumbnail (from the pyramid when one was built, else refused at the open) is answered too.
        XCTAssertNoThrow(try HTTPClient.get(url: run.base + "/photos/\(id)/thumbnail.jpg", timeoutSeconds: 30), "something waited on the FIFO")
    }
}
