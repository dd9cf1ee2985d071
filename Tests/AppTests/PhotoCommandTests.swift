import Foundation
import Imaging
import Library
import Observability
import XCTest
@testable import App

/// `photoscroll ingest` and `photoscroll export` as functions.
final class PhotoCommandTests: XCTestCase {
    func testIngestBuildsEverythingAndFailsWhenAnyPhotoFails() throws {
        let root = NSTemporaryDirectory() + "photo-commands-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: root) }
        let photos = root + "/photos"
        try FileManager.default.createDirectory(atPath: photos, withIntermediateDirectories: true)
        try DemoImage.write(to: photos + "/photo1.jpg", width: 900, height: 500, seed: 2)
        var configuration = Configuration()
        configuration.photos = photos
        configuration.data = root + "/data"

        XCTAssertEqual(try IngestCommand.run(configuration: configuration, paths: [], logger: .disabled), 0)
        let library = try PhotoLibrary(configuration: LibraryConfiguration(configuration), logger: .disabled, metrics: .init())
        XCTAssertEqual(library.photo(1)?.status, .ready)

        FileManager.default.createFile(atPath: photos + "/broken.jpg", contents: Data("nope".utf8))
        XCTAssertEqual(try IngestCommand.run(configuration: configuration, paths: [], logger: .disabled), 1)
        // Only the named file: the good one alone succeeds.
        XCTAssertEqual(try IngestCommand.run(configuration: configuration, paths: [photos + "/photo1.jpg"], logger: .disabled), 0)
        XCTAssertThrowsError(try IngestCommand.run(configuration: configuration, paths: [root + "/elsewhere.jpg"], logger: .disabled)) {
            XCTAssertTrue("\($0)".contains("not inside the photos folder"))
        }

        let out = root + "/export"
        XCTAssertEqual(try ExportCommand.run(configuration: configuration, photo: "1", outputDirectory: out, logger: .disabled), 0)
        // 900×500: maxZoom 2, level 2 is 4 × 2 tiles.
        XCTAssertTrue(FileManager.default.fileExists(atPath: out + "/2/3/1.jpg"))
        XCTAssertTrue(FileManager.default.fileExists(atPath: out + "/info.json"))
        XCTAssertTrue(FileManager.default.fileExists(atPath: out + "/photo1.dzi"))
        XCTAssertEqual(try ExportCommand.run(configuration: configuration, photo: photos + "/broken.jpg", outputDirectory: out, logger: .disabled), 1)
        XCTAssertThrowsError(try ExportCommand.run(configuration: configuration, photo: "7", outputDirectory: out, logger: .disabled))
        // A file outside the photos folder is exported without joining the catalog.
        try DemoImage.write(to: root + "/outside.jpg", width: 300, height: 300, seed: 5)
        XCTAssertEqual(try ExportCommand.run(configuration: configuration, photo: root + "/outside.jpg", outputDirectory: root + "/out2", logger: .disabled), 0)
        XCTAssertTrue(FileManager.default.fileExists(atPath: root + "/out2/1/1/1.jpg"))
        XCTAssertTrue(FileManager.default.fileExists(atPath: root + "/out2/outside.dzi"))
        XCTAssertFalse(try FileManager.default.contentsOfDirectory(atPath: root + "/out2").contains { $0.hasPrefix(".pyramid") })
    }

    /// A pyramidal TIFF is exported with every tile read from the file, by id and by path.
    func testExportOfAPyramidalTIFFReadsItsTilesFromTheFile() throws {
        let root = NSTemporaryDirectory() + "photo-commands-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: root) }
        let photos = root + "/photos"
        try FileManager.default.createDirectory(atPath: photos, withIntermediateDirectories: true)
        try DemoImage.write(to: root + "/source.jpg", width: 900, height: 500, seed: 2)
        let vips = Process()
        vips.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        vips.arguments = ["vips", "tiffsave", root + "/source.jpg", photos + "/scan.tif", "--tile", "--tile-width", "256",
                          "--tile-height", "256", "--pyramid", "--compression", "jpeg"]
        try vips.run()
        vips.waitUntilExit()
        var configuration = Configuration()
        configuration.photos = photos
        configuration.data = root + "/data"
        XCTAssertEqual(try IngestCommand.run(configuration: configuration, paths: [], logger: .disabled), 0)
        for (photo, out) in [("1", root + "/by-id"), (photos + "/scan.tif", root + "/by-path")] {
            XCTAssertEqual(try ExportCommand.run(configuration: configuration, photo: photo, outputDirectory: out, logger: .disabled), 0)
            // 900×500: maxZoom 2, level 2 is 4 × 2 tiles; the corner one is cropped to 132×244.
            let corner = try VipsPhotoRendering(settings: RenderSettings()).probe(.file(out + "/2/3/1.jpg"))
            XCTAssertEqual([corner.width, corner.height], [900 - 768, 500 - 256], out)
            XCTAssertTrue(FileManager.default.fileExists(atPath: out + "/0/0/0.jpg"), out)
            XCTAssertTrue(FileManager.default.fileExists(atPath: out + "/thumbnail.jpg"), out)
        }
    }
}
