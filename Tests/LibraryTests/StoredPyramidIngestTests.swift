import Foundation
import Imaging
@testable import Library
import XCTest

/// A pyramidal TIFF in the photos folder: listed, "built" into a thumbnail alone, its tiles and
/// regions read from the file before and after, and a hostile one failing on its own.
final class StoredPyramidIngestTests: XCTestCase {
    private func vips(_ arguments: String...) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["vips"] + arguments
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, arguments.joined(separator: " "))
    }

    func testPyramidalTIFFIsServedFromItsFileWithOnlyAThumbnailKept() throws {
        let folders = try Folders(self)
        try folders.real("source.jpg", 1100, 800)
        try vips("tiffsave", folders.photos + "/source.jpg", folders.photos + "/scan.tif", "--tile", "--tile-width", "256",
                 "--tile-height", "256", "--pyramid", "--bigtiff", "--compression", "jpeg")
        try FileManager.default.removeItem(atPath: folders.photos + "/source.jpg")
        // A TIFF cut after its header: its first directory lies past the end.
        var hostile = Array(try Data(contentsOf: URL(fileURLWithPath: folders.photos + "/scan.tif")))
        hostile = Array(hostile.prefix(16)) + [UInt8](repeating: 0, count: 4)
        try Data(hostile).write(to: URL(fileURLWithPath: folders.photos + "/cut.tif"))
        let library = try folders.library()
        library.refresh()
        let scan = try XCTUnwrap(library.photo(relativePath: "scan.tif"))
        // Before its build: tiles from the file, nothing written for them.
        let before = try library.image(of: scan, tile: TileCoordinate(z: 3, x: 1, y: 1))
        XCTAssertEqual(Array(before.prefix(2)), [0xFF, 0xD8])
        XCTAssertTrue(library.waitForIngest(timeoutSeconds: 120))
        let ready = try XCTUnwrap(library.photo(relativePath: "scan.tif"))
        XCTAssertEqual(ready.status, .ready)
        XCTAssertEqual([ready.width, ready.height], [1100, 800])
        let directory = library.catalog.pyramidDirectory(ready.version)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory).sorted(), [PhotoRenderer.storedMarker, "thumbnail.jpg"])
        let pyramid = try XCTUnwrap(ready.pyramid(tileSize: 256))
        for z in 0...pyramid.maxZoom {
            let grid = pyramid.grid(z)!
            for tile in [TileCoordinate(z: z, x: 0, y: 0), TileCoordinate(z: z, x: grid.columns - 1, y: grid.rows - 1)] {
                let bytes = try library.image(of: ready, tile: tile)
                let path = NSTemporaryDirectory() + "stored-\(UUID().uuidString).jpg"
                try Data(bytes).write(to: URL(fileURLWithPath: path))
                defer { try? FileManager.default.removeItem(atPath: path) }
                let size = try VipsPhotoRendering(settings: RenderSettings()).probe(.file(path))
                let rect = pyramid.rect(tile)!
                XCTAssertEqual([size.width, size.height], [rect.width, rect.height], "\(tile)")
            }
        }
        XCTAssertEqual(library.photo(relativePath: "scan.tif")?.status, .ready, "serving tiles in place never sent it back to be built")
        let region = try library.rendition(of: ready, RegionRendition(region: PixelRect(x: 0, y: 0, width: 1100, height: 800), width: 275, height: 200))
        XCTAssertEqual(Array(region.prefix(2)), [0xFF, 0xD8])
        // Nothing of the TIFF's tiles is kept in the data folder.
        let early = folders.data + "/tiles/.early"
        let leftovers = (try? FileManager.default.subpathsOfDirectory(atPath: early))?.filter { $0.hasSuffix(".jpg") } ?? []
        XCTAssertEqual(leftovers, [])
        let cut = try XCTUnwrap(library.photo(relativePath: "cut.tif"))
        XCTAssertEqual(cut.status, .failed)
    }
}
