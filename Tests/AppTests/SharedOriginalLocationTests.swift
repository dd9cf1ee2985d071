import Access
import Foundation
@testable import App
@testable import HTTP
import Imaging
import XCTest

/// An original through a share link: without the link's `location`, a JPEG comes without GPS,
/// XMP places or IPTC location, its image data byte for byte; any other format is refused; the
/// owner, and a link with `location`, get the file as it is on disk.
final class SharedOriginalLocationTests: XCTestCase {
    var f: AccessFixture!
    var source = ""
    var png = ""

    override func setUpWithError() throws {
        let scratch = NSTemporaryDirectory() + "shared-original-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: scratch) }
        source = scratch + "/harbour.jpg"
        png = scratch + "/flat.png"
        try DemoImage.write(to: source, width: 96, height: 64, seed: 7)
        try DemoImage.write(to: png, width: 40, height: 30, seed: 8)
        try Self.run(Self.exiftool, ["-q", "-overwrite_original", "-Make=Acme", "-Model=Harbourcam", "-Orientation#=6",
                                     "-GPSLatitude=51.5", "-GPSLatitudeRef=N", "-GPSLongitude=0.25", "-GPSLongitudeRef=W",
                                     "-XMP-exif:GPSLatitude=51.5 N", "-XMP-exif:GPSLongitude=0.25 W", "-XMP-photoshop:City=Paris",
                                     "-IPTC:City=Paris", "-IPTC:Sub-location=Quay", "-IPTC:Province-State=Ile-de-France",
                                     "-IPTC:Country-PrimaryLocationCode=FRA", "-IPTC:Country-PrimaryLocationName=France",
                                     "-IPTC:Caption-Abstract=Boats at dusk", source])
        let broken = Self.withBrokenPhotoshopBlock([UInt8](try Data(contentsOf: URL(fileURLWithPath: source))))
        let (jpeg, png) = (source, png)
        f = try AccessFixture(renderer: nil) { configuration in
            try? FileManager.default.copyItem(atPath: jpeg, toPath: configuration.photos + "/trip/harbour.jpg")
            try? FileManager.default.copyItem(atPath: png, toPath: configuration.photos + "/trip/flat.png")
            FileManager.default.createFile(atPath: configuration.photos + "/trip/broken.jpg", contents: Data(broken))
        }
    }

    override func tearDown() {
        f?.close()
    }

    func testALinkWithoutLocationSendsTheSamePixelsAndScanWithoutAnyPlace() throws {
        let link = try f.share(ShareRequest(target: .folder(f.folders["trip"]!), expiresAt: nil, download: true))
        let answer = f.request(.GET, "/s/\(link.token)/photos/\(try XCTUnwrap(f.photos["harbour"]))/original")
        XCTAssertEqual(answer.status, .ok, answer.text)
        let original = [UInt8](try Data(contentsOf: URL(fileURLWithPath: source)))
        XCTAssertTrue(answer.body != original, "the metadata was rewritten")
        XCTAssertTrue(answer.body[try Self.scanStart(answer.body)...] == original[try Self.scanStart(original)...],
                      "the image data from SOS on is the file's, byte for byte")
        let sent = NSTemporaryDirectory() + "sent-\(UUID().uuidString).jpg"
        try Data(answer.body).write(to: URL(fileURLWithPath: sent))
        defer { try? FileManager.default.removeItem(atPath: sent) }
        XCTAssertEqual(try Self.pixels(sent), try Self.pixels(source), "the same pixels decoded")

        let tags = try Self.metadata(sent)
        for (key, value) in tags {
            for place in ["GPS", "City", "Country", "Sub-location", "Province", "Location"] {
                XCTAssertFalse(key.contains(place), "\(key): \(value)")
            }
        }
        XCTAssertFalse(try Self.metadata(source).filter { $0.key.contains("GPS") || $0.key.contains("City") }.isEmpty, "the source had places")
        XCTAssertEqual(tags["IFD0:Make"] as? String, "Acme")
        XCTAssertEqual(tags["IFD0:Model"] as? String, "Harbourcam")
        XCTAssertEqual(tags["IFD0:Orientation"] as? String, "Rotate 90 CW")
        XCTAssertEqual(tags["IPTC:Caption-Abstract"] as? String, "Boats at dusk")
    }

    func testTheCleanedAnswerHasItsOwnTagLengthAndRanges() throws {
        let link = try f.share(ShareRequest(target: .folder(f.folders["trip"]!), expiresAt: nil, download: true))
        let owner = try f.signIn("ana", AccessFixture.ownerPassword)
        let id = try XCTUnwrap(f.photos["harbour"])
        let cleaned = f.request(.GET, "/s/\(link.token)/photos/\(id)/original")
        let own = f.request(.GET, "/photos/\(id)/original", headers: ["Cookie": owner])
        let tag = try XCTUnwrap(cleaned.headers["ETag"])
        XCTAssertNotEqual(tag, own.headers["ETag"])
        XCTAssertTrue(tag.hasPrefix("\"") && tag.hasSuffix("\""), tag)
        XCTAssertEqual(cleaned.headers["Content-Length"].flatMap { Int($0) } ?? cleaned.body.count, cleaned.body.count)
        let range = f.request(.GET, "/s/\(link.token)/photos/\(id)/original", headers: ["Range": "bytes=2-11"])
        XCTAssertEqual(range.status, .partialContent)
        XCTAssertEqual(range.body, Array(cleaned.body[2...11]))
        XCTAssertEqual(range.headers["Content-Range"], "bytes 2-11/\(cleaned.body.count)")
        XCTAssertEqual(f.request(.GET, "/s/\(link.token)/photos/\(id)/original", headers: ["If-None-Match": tag]).status, .notModified)
        let stale = f.request(.GET, "/s/\(link.token)/photos/\(id)/original",
                              headers: ["Range": "bytes=2-11", "If-Range": try XCTUnwrap(own.headers["ETag"])])
        XCTAssertEqual(stale.status, .ok, "the file's tag does not name the cleaned bytes")
    }

    func testTheOwnerAndALinkWithLocationGetTheFileAsItIs() throws {
        let id = try XCTUnwrap(f.photos["harbour"])
        let original = [UInt8](try Data(contentsOf: URL(fileURLWithPath: source)))
        let owner = try f.signIn("ana", AccessFixture.ownerPassword)
        XCTAssertTrue(f.request(.GET, "/photos/\(id)/original", headers: ["Cookie": owner]).body == original, "the owner's: the file")
        let link = try f.share(ShareRequest(target: .photo(id), expiresAt: nil, download: true, location: true))
        XCTAssertTrue(f.request(.GET, "/s/\(link.token)/photos/\(id)/original").body == original, "a link with location: the file")
        let flat = try XCTUnwrap(f.photos["flat"])
        let pngLink = try f.share(ShareRequest(target: .photo(flat), expiresAt: nil, download: true, location: true))
        XCTAssertTrue(f.request(.GET, "/s/\(pngLink.token)/photos/\(flat)/original").body == [UInt8](try Data(contentsOf: URL(fileURLWithPath: png))),
                      "a PNG through a link with location: the file")
    }

    func testAnotherFormatThroughALinkWithoutLocationIsRefusedSayingWhy() throws {
        let flat = try XCTUnwrap(f.photos["flat"])
        let link = try f.share(ShareRequest(target: .photo(flat), expiresAt: nil, download: true))
        let answer = f.request(.GET, "/s/\(link.token)/photos/\(flat)/original")
        XCTAssertEqual(answer.status, .notFound)
        XCTAssertEqual(answer.headers["Content-Type"], "application/problem+json")
        let detail = try XCTUnwrap(answer.object["detail"] as? String)
        XCTAssertTrue(detail.contains("does not share where photos were taken") && detail.contains("image/png"), detail)
    }

    func testAJPEGWhoseMetadataCannotBeWalkedIsRefusedNotSentWhole() throws {
        let id = try XCTUnwrap(f.photos["broken"])
        let link = try f.share(ShareRequest(target: .photo(id), expiresAt: nil, download: true))
        let answer = f.request(.GET, "/s/\(link.token)/photos/\(id)/original")
        XCTAssertEqual(answer.status, .notFound)
        XCTAssertEqual(answer.headers["Content-Type"], "application/problem+json")
        let detail = try XCTUnwrap(answer.object["detail"] as? String)
        XCTAssertTrue(detail.contains("does not share where photos were taken") && detail.contains("cannot be removed safely"), detail)
        let owner = try f.signIn("ana", AccessFixture.ownerPassword)
        XCTAssertEqual(f.request(.GET, "/photos/\(id)/original", headers: ["Cookie": owner]).status, .ok, "the owner still gets it")
    }

    /// `jpeg` with a Photoshop block after its start whose one resource says it is longer than the
    /// block: decoders skip it, and no one can say what is in it.
    static func withBrokenPhotoshopBlock(_ jpeg: [UInt8]) -> [UInt8] {
        let block = Array("Photoshop 3.0\u{0}8BIM".utf8) + [0x04, 0x04, 0, 0, 0x7F, 0, 0, 0] + Array("Paris".utf8)
        return Array(jpeg.prefix(2)) + [0xFF, 0xED, 0, UInt8(block.count + 2)] + block + Array(jpeg.dropFirst(2))
    }

    // MARK: - The tools

    static let exiftool = "/usr/bin/exiftool"

    @discardableResult
    static func run(_ tool: String, _ arguments: [String]) throws -> Data {
        guard FileManager.default.isExecutableFile(atPath: tool) else {
            throw XCTSkip("\(tool) is not installed (scripts/install-deps.sh test)")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw CocoaError(.fileReadUnknown, userInfo: ["tool": tool, "arguments": arguments]) }
        return data
    }

    /// Every tag exiftool reads, by group and name (`IFD0:Make`, `GPS:GPSLatitude`, `XMP-photoshop:City`).
    static func metadata(_ path: String) throws -> [String: Any] {
        let data = try run(exiftool, ["-j", "-a", "-G1", path])
        let list = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        return try XCTUnwrap(list.first)
    }

    /// The decoded pixels, as vips saves them raw.
    static func pixels(_ path: String) throws -> Data {
        let raw = NSTemporaryDirectory() + "pixels-\(UUID().uuidString).raw"
        defer { try? FileManager.default.removeItem(atPath: raw) }
        try run("/usr/bin/vips", ["rawsave", path, raw])
        return try Data(contentsOf: URL(fileURLWithPath: raw))
    }

    /// Where the first SOS marker is, walking the segments before it.
    static func scanStart(_ jpeg: [UInt8]) throws -> Int {
        var at = 2
        while at + 4 <= jpeg.count, jpeg[at] == 0xFF {
            if jpeg[at + 1] == 0xDA { return at }
            at += 2 + (Int(jpeg[at + 2]) << 8 | Int(jpeg[at + 3]))
        }
        throw CocoaError(.fileReadCorruptFile, userInfo: ["why": "no scan found in \(jpeg.count) bytes"])
    }
}
