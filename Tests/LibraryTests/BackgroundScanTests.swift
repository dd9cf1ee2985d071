import Foundation
@testable import Library
import TestSupport
import XCTest

final class BackgroundScanTests: XCTestCase {
    /// Polls until `condition` holds or `seconds` pass.
    func testFilesAddedChangedAndRemovedWhileRunningArePickedUp() throws {
        let folders = try Folders(self)
        folders.fake("photo1.jpg", 500, 500)
        let library = try PhotoLibrary(configuration: LibraryConfiguration(
            photosDirectory: folders.photos, dataDirectory: folders.data, rescanSeconds: 0.1, settleSeconds: 0),
            renderer: FakeRenderer(), logger: .disabled, metrics: .init())
        XCTAssertFalse(library.isReady)
        library.start()
        defer { library.stop(); library.waitForIngest(timeoutSeconds: 60) }
        XCTAssertTrue(eventually { library.isReady && library.photo(1)?.status == .ready })

        folders.fake("photo2.jpg", 300, 300)
        XCTAssertTrue(eventually { library.photo(2)?.status == .ready })

        let before = try XCTUnwrap(library.photo(1)).version
        folders.fake("photo1.jpg", 500, 500, extra: "edited")
        XCTAssertTrue(eventually { library.photo(1)?.version != before && library.photo(1)?.status == .ready })

        try FileManager.default.removeItem(atPath: folders.photos + "/photo2.jpg")
        XCTAssertTrue(eventually { library.photo(2) == nil })
        XCTAssertEqual(library.photos.map(\.id), [1])
    }

    func testExportWritesOurLayoutDeepZoomAndInfo() throws {
        let folders = try Folders(self)
        folders.fake("photo1.jpg", 700, 300)
        let library = try folders.library(renderer: FakeRenderer())
        library.refresh()
        XCTAssertTrue(library.waitForIngest(timeoutSeconds: 60))
        let photo = try XCTUnwrap(library.photo(1))
        let pyramid = try XCTUnwrap(photo.pyramid(tileSize: 256))
        let out = folders.data + "/export"
        let export = PyramidExport(pyramid: pyramid, source: library.catalog.pyramidDirectory(photo.version), name: "photo1",
                                   tilePath: { FakeRenderer().tilePath(in: $0, $1) })
        XCTAssertEqual(try export.write(to: out), pyramid.tileCount)
        XCTAssertEqual(try String(contentsOfFile: out + "/2/2/1.jpg", encoding: .utf8), "disk 2/2/1")
        // 700 px: DeepZoom has levels 0…10, ours 0…2, so our 2 is its 10.
        XCTAssertEqual(pyramid.deepZoomShift, 8)
        XCTAssertEqual(try String(contentsOfFile: out + "/photo1_files/10/2_1.jpg", encoding: .utf8), "disk 2/2/1")
        XCTAssertEqual(try String(contentsOfFile: out + "/photo1_files/8/0_0.jpg", encoding: .utf8), "disk 0/0/0")
        let dzi = try String(contentsOfFile: out + "/photo1.dzi", encoding: .utf8)
        XCTAssertTrue(dzi.contains("<Size Width=\"700\" Height=\"300\"/>"))
        XCTAssertTrue(dzi.contains("TileSize=\"256\""))
        let info = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/info.json"))) as? [String: Any])
        XCTAssertEqual(info["width"] as? Int, 700)
        XCTAssertEqual(info["maxZoom"] as? Int, 2)
        XCTAssertEqual((info["deepZoom"] as? [String: Any])?["levelShift"] as? Int, 8)
        XCTAssertEqual((info["levels"] as? [[String: Any]])?.last?["columns"] as? Int, 3)
    }
}
