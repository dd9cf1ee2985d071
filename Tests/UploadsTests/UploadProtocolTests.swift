import Foundation
import XCTest
@testable import Uploads

final class UploadProtocolTests: XCTestCase {
    func testSHA1AndSHA256MatchTheStandardVectors() {
        // FIPS 180 examples: "abc".
        let sha1 = ChecksumDigest(.sha1)
        sha1.update(Array("abc".utf8))
        XCTAssertEqual(hex(sha1.finish()), "a9993e364706816aba3e25717850c26c9cd0d89d")
        let sha256 = ChecksumDigest(.sha256)
        sha256.update(Array("ab".utf8))
        sha256.update(Array("c".utf8))
        XCTAssertEqual(hex(sha256.finish()), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        let sha512 = ChecksumDigest(.sha512)
        XCTAssertEqual(hex(sha512.finish()).prefix(16), "cf83e1357eefb8bd")
    }

    func testChecksumHeaders() throws {
        let parsed = try UploadChecksumHeader.parse("sha1 qZk+NkcGgWq6PiVxeFDCbJzQ2J0=")
        XCTAssertEqual(parsed.algorithm, .sha1)
        XCTAssertEqual(hex(parsed.digest), "a9993e364706816aba3e25717850c26c9cd0d89d")
        XCTAssertThrowsError(try UploadChecksumHeader.parse("md5 1B2M2Y8AsgTpgAmY7PhCfg==")) { error in
            XCTAssertEqual(error as? UploadChecksumHeader.Problem, .unsupported("md5"))
        }
        for bad in ["sha1", "sha1 !!!!", "sha1 qZk+NkcGgWq6PiVxeFDCbJzQ2J0", "sha1 YWJj", ""] {
            XCTAssertThrowsError(try UploadChecksumHeader.parse(bad), bad)
        }
    }

    func testMetadataPairs() throws {
        let metadata = try UploadMetadata.parse("filename d29ybGRfZG9taW5hdGlvbl9wbGFuLnBkZg==,is_confidential")
        XCTAssertEqual(metadata.fileName, "world_domination_plan.pdf")
        XCTAssertEqual(metadata.pairs.map(\.key), ["filename", "is_confidential"])
        XCTAssertEqual(try UploadMetadata.parse("name YS5qcGc=").fileName, "a.jpg")
        XCTAssertEqual(try UploadMetadata.parse("").pairs.count, 0)
        for bad in ["filename not*base64", "a YQ==,a YQ==", "a b c", ",", String(repeating: "k YQ==,", count: 40) + "z"] {
            XCTAssertThrowsError(try UploadMetadata.parse(bad), bad)
        }
    }

    func testFileNamesLoseEveryFolderPart() {
        XCTAssertEqual(UploadFileName.sanitized("../../etc/passwd"), "passwd")
        XCTAssertEqual(UploadFileName.sanitized("C:\\Users\\ana\\IMG_1.JPG"), "IMG_1.JPG")
        XCTAssertEqual(UploadFileName.sanitized(".hidden.jpg"), "hidden.jpg")
        XCTAssertEqual(UploadFileName.sanitized("a\u{202e}gpj.exe"), "agpj.exe")
        XCTAssertEqual(UploadFileName.sanitized("line\nbreak.jpg"), "linebreak.jpg")
        XCTAssertNil(UploadFileName.sanitized(".."))
        XCTAssertNil(UploadFileName.sanitized("/"))
        XCTAssertEqual(UploadFileName.sanitized("dir/"), "dir")
        let long = UploadFileName.sanitized(String(repeating: "é", count: 300) + ".jpeg")!
        XCTAssertLessThanOrEqual(long.utf8.count, UploadFileName.maxBytes)
        XCTAssertTrue(long.hasSuffix(".jpeg"))
        for name in ["../../etc/passwd", "a/../../b", "..\\..\\x", "\u{0}x", "~/.ssh/id"] {
            let clean = UploadFileName.sanitized(name) ?? ""
            XCTAssertFalse(clean.contains("/") || clean.contains("\\") || clean.contains("\u{0}") || clean.hasPrefix("."), name)
        }
    }

    func testExtensionsFollowTheBytes() {
        XCTAssertEqual(UploadFileName.named("IMG_1.JPG", mediaType: "image/jpeg", fallbackStem: "x"), "IMG_1.JPG")
        XCTAssertEqual(UploadFileName.named("photo.svg", mediaType: "image/jpeg", fallbackStem: "x"), "photo.jpg")
        XCTAssertEqual(UploadFileName.named("passwd", mediaType: "image/png", fallbackStem: "x"), "passwd.png")
        XCTAssertEqual(UploadFileName.named(nil, mediaType: "image/tiff", fallbackStem: "upload"), "upload.tif")
        XCTAssertEqual(UploadFileName.numbered("a.jpg", 2), "a (2).jpg")
        XCTAssertEqual(UploadFileName.numbered("a", 3), "a (3)")
    }

    func testIDsAreRandomAndChecked() {
        let a = UploadID(), b = UploadID()
        XCTAssertNotEqual(a, b)
        XCTAssertEqual(a.text.count, 32)
        XCTAssertEqual(UploadID(a.text), a)
        XCTAssertNil(UploadID("../../etc/passwd"))
        XCTAssertNil(UploadID(a.text.uppercased()))
    }

    func testMultipartFormsReadTheSameSplitAnywhere() throws {
        let boundary = "----x7MA4YWxkTrZu0gW"
        XCTAssertEqual(MultipartReader.boundary(contentType: "multipart/form-data; boundary=\(boundary)"), boundary)
        XCTAssertEqual(MultipartReader.boundary(contentType: "multipart/form-data; boundary=\"a b\""), "a b")
        XCTAssertNil(MultipartReader.boundary(contentType: "application/json"))
        let file: [UInt8] = Array("\r\n--not-it\r\n\u{0}\u{ff}binary\r\n".utf8) + (0..<300).map { UInt8($0 % 256) }
        var body = Array("preamble\r\n--\(boundary)\r\nContent-Disposition: form-data; name=\"album\"\r\n\r\n7\r\n--\(boundary)\r\n".utf8)
        body += Array("Content-Disposition: form-data; name=\"file\"; filename=\"../a \\\"b\\\".jpg\"\r\nContent-Type: image/jpeg\r\n\r\n".utf8)
        body += file
        body += Array("\r\n--\(boundary)\r\nContent-Disposition: form-data; name=\"empty\"\r\n\r\n\r\n--\(boundary)--\r\nepilogue".utf8)
        let expected: [MultipartReader.Event] = [.part(name: "album", fileName: nil), .data(Array("7".utf8)), .partEnd,
                                                 .part(name: "file", fileName: "../a \"b\".jpg"), .data(file), .partEnd,
                                                 .part(name: "empty", fileName: nil), .partEnd]
        for split in 0...body.count {
            var reader = MultipartReader(boundary: boundary)
            var events: [MultipartReader.Event] = []
            let collect: (MultipartReader.Event) -> Void = { event in
                if case .data(let bytes) = event, case .data(let before)? = events.last {
                    events[events.count - 1] = .data(before + bytes)
                } else {
                    events.append(event)
                }
            }
            try reader.feed(Array(body[..<split]), collect)
            try reader.feed(Array(body[split...]), collect)
            XCTAssertEqual(events, expected, "split at \(split)")
            XCTAssertTrue(reader.isComplete)
        }
    }

    func testMultipartRefusesAnEndlessHead() {
        var reader = MultipartReader(boundary: "b")
        XCTAssertThrowsError(try reader.feed(Array("--b\r\n".utf8) + [UInt8](repeating: 65, count: 9000)) { _ in })
    }

    private func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
}
