import Foundation
import HTTP
import Imaging
@testable import Library
import Observability
import XCTest
@testable import App

/// A pyramidal TIFF over a real socket: its tiles, IIIF answers, DeepZoom descriptor and
/// original as for any photo, and a hostile TIFF beside it failing alone.
final class StoredPyramidLiveTests: XCTestCase {
    func testPyramidalTIFFAnswersLikeAnyPhoto() throws {
        let (root, photos) = try makeLiveRoot("stored-live")
        try DemoImage.write(to: root + "/source.jpg", width: 1100, height: 600, seed: 4)
        let vips = Process()
        vips.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        vips.arguments = ["vips", "tiffsave", root + "/source.jpg", photos + "/scan.tif", "--tile", "--tile-width", "256",
                          "--tile-height", "256", "--pyramid", "--subifd", "--compression", "jpeg", "--Q", "85"]
        try vips.run()
        vips.waitUntilExit()
        XCTAssertEqual(vips.terminationStatus, 0)
        try DemoImage.write(to: photos + "/good.jpg", width: 400, height: 300, seed: 5)
        // A TIFF that says it is a 1100×600 pyramid, its second level twice as large as the first.
        var liar = Array(try Data(contentsOf: URL(fileURLWithPath: photos + "/scan.tif")))
        let lied = try XCTUnwrap(Self.replaceFirstSubIFDWidth(in: &liar, with: 2200))
        XCTAssertTrue(lied)
        try Data(liar).write(to: URL(fileURLWithPath: photos + "/liar.tif"))

        let live = try startLivePhotoService(root: root, workerThreads: 4)
        let service = live.service, base = live.base
        XCTAssertTrue(service.library.waitForIngest(timeoutSeconds: 120))
        let scan = try XCTUnwrap(service.library.photo(relativePath: "scan.tif"))
        XCTAssertEqual(scan.status, .ready)

        // An inner native tile: the IIIF answer for its region is the same bytes.
        let tile = try HTTPClient.get(url: base + "/photos/\(scan.id)/tiles/3/1/1.jpg?v=\(scan.version)")
        XCTAssertEqual(tile.status, 200)
        XCTAssertEqual(tile.headers["Content-Type"], "image/jpeg")
        XCTAssertEqual(Array(tile.body.prefix(2)), [0xFF, 0xD8])
        let iiifTile = try HTTPClient.get(url: base + "/iiif/3/\(scan.id)/256,256,256,256/256,256/0/default.jpg")
        XCTAssertEqual(iiifTile.status, 200)
        XCTAssertTrue(iiifTile.body == tile.body)
        let info = try HTTPClient.get(url: base + "/iiif/3/\(scan.id)/info.json")
        let document = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(info.body)) as? [String: Any])
        XCTAssertEqual(document["width"] as? Int, 1100)
        XCTAssertEqual(document["height"] as? Int, 600)
        let region = try HTTPClient.get(url: base + "/iiif/3/\(scan.id)/full/!300,300/0/default.png")
        XCTAssertEqual(region.status, 200)
        XCTAssertEqual(Array(region.body.prefix(4)), [0x89, 0x50, 0x4E, 0x47])
        let dzi = try HTTPClient.get(url: base + "/photos/\(scan.id)/image.dzi")
        XCTAssertEqual(dzi.status, 200)
        XCTAssertTrue(String(decoding: dzi.body, as: UTF8.self).contains("Width=\"1100\" Height=\"600\""))
        let original = try HTTPClient.get(url: base + "/photos/\(scan.id)/original")
        XCTAssertEqual(original.status, 200)
        XCTAssertTrue(original.body == Array(try Data(contentsOf: URL(fileURLWithPath: photos + "/scan.tif"))))
        XCTAssertEqual(try HTTPClient.get(url: base + "/photos/\(scan.id)/thumbnail.jpg").status, 200)

        // The liar fails on its own, with a reason and a problem, never a 500; the others answer.
        let liarPhoto = try XCTUnwrap(service.library.photo(relativePath: "liar.tif"))
        XCTAssertEqual(liarPhoto.status, .failed)
        XCTAssertTrue(liarPhoto.error?.contains("levels") ?? false, liarPhoto.error ?? "")
        let refused = try HTTPClient.get(url: base + "/photos/\(liarPhoto.id)/tiles/0/0/0.jpg")
        XCTAssertTrue([404, 422].contains(refused.status), "\(refused.status)")
        XCTAssertEqual(refused.headers["Content-Type"]?.hasPrefix("application/problem+json"), true)
        let good = try XCTUnwrap(service.library.photo(relativePath: "good.jpg"))
        XCTAssertEqual(try HTTPClient.get(url: base + "/photos/\(good.id)/tiles/0/0/0.jpg").status, 200)
    }

    /// Sets the width of the first SubIFD of a little-endian classic TIFF's first page.
    private static func replaceFirstSubIFDWidth(in bytes: inout [UInt8], with width: Int) -> Bool? {
        func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        func u32(_ at: Int) -> Int { u16(at) | u16(at + 2) << 16 }
        guard bytes.count > 8, bytes[0] == 0x49, u16(2) == 42 else { return nil }
        let first = u32(4)
        func entries(_ directory: Int) -> [(tag: Int, at: Int)] {
            (0..<u16(directory)).map { (u16(directory + 2 + $0 * 12), directory + 2 + $0 * 12) }
        }
        guard let subs = entries(first).first(where: { $0.tag == 330 }) else { return nil }
        let count = u32(subs.at + 4)
        let sub = count == 1 ? u32(subs.at + 8) : u32(u32(subs.at + 8))
        guard let widthEntry = entries(sub).first(where: { $0.tag == 256 }) else { return nil }
        let type = u16(widthEntry.at + 2)
        bytes[widthEntry.at + 8] = UInt8(width & 0xFF)
        bytes[widthEntry.at + 9] = UInt8(width >> 8 & 0xFF)
        if type == 4 { bytes[widthEntry.at + 10] = 0; bytes[widthEntry.at + 11] = 0 }
        return true
    }
}
