import Foundation
import XCTest
@testable import IIIF

/// info.json and the Presentation manifest: valid JSON with the keys viewers read.
final class DocumentTests: XCTestCase {
    func object(_ json: String) throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    }

    func testImageInformation() throws {
        let info = ImageInformation(id: "http://example.org/iiif/3/7", width: 1000, height: 700, tileSize: 256,
                                    scaleFactors: [1, 2, 4], sizes: [(1000, 700), (250, 175), (500, 350)],
                                    limits: ImageLimits(maxArea: 400_000))
        XCTAssertTrue(info.json.hasPrefix("{\"@context\":\"http://iiif.io/api/image/3/context.json\","), "@context comes first")
        let json = try object(info.json)
        XCTAssertEqual(json["id"] as? String, "http://example.org/iiif/3/7")
        XCTAssertEqual(json["type"] as? String, "ImageService3")
        XCTAssertEqual(json["protocol"] as? String, "http://iiif.io/api/image")
        XCTAssertEqual(json["profile"] as? String, "level2")
        XCTAssertEqual(json["width"] as? Int, 1000)
        XCTAssertEqual(json["maxArea"] as? Int, 400_000)
        XCTAssertNil(json["maxWidth"])
        // The full size is over the area limit, so it is not offered; the rest smallest first.
        let sizes = try XCTUnwrap(json["sizes"] as? [[String: Any]])
        XCTAssertEqual(sizes.map { $0["width"] as? Int }, [250, 500])
        let tiles = try XCTUnwrap(json["tiles"] as? [[String: Any]])
        XCTAssertEqual(tiles.count, 1)
        XCTAssertEqual(tiles[0]["width"] as? Int, 256)
        XCTAssertEqual(tiles[0]["scaleFactors"] as? [Int], [1, 2, 4])
        XCTAssertEqual(json["extraFormats"] as? [String], ["webp", "gif", "tif"])
        XCTAssertEqual(json["extraQualities"] as? [String], ["color", "gray", "bitonal"])
        XCTAssertTrue((json["extraFeatures"] as? [String] ?? []).contains("sizeUpscaling"))

        let limited = ImageInformation(id: "http://x/1", width: 10, height: 10, tileSize: 256, scaleFactors: [1], sizes: [(10, 10)],
                                       limits: ImageLimits(maxArea: 100, maxWidth: 8, maxHeight: 6))
        let limitedJSON = try object(limited.json)
        XCTAssertEqual(limitedJSON["maxWidth"] as? Int, 8)
        XCTAssertEqual(limitedJSON["maxHeight"] as? Int, 6)
        XCTAssertNil(limitedJSON["sizes"], "no size fits, so none is listed")
    }

    func testManifest() throws {
        let canvas = PresentationManifest.Canvas(id: "http://h/photos/3/canvas", label: "Beach \"2\"", width: 4000, height: 3000,
                                                 service: "http://h/iiif/3/3", maxWidth: 4000, maxHeight: 3000,
                                                 thumbnail: "http://h/photos/3/thumbnail.jpg?v=1", thumbnailWidth: 256, thumbnailHeight: 256)
        let manifest = PresentationManifest(id: "http://h/iiif/manifest.json", label: "Photos", canvases: [canvas, canvas])
        XCTAssertTrue(manifest.json.hasPrefix("{\"@context\":\"http://iiif.io/api/presentation/3/context.json\""))
        let json = try object(manifest.json)
        XCTAssertEqual(json["type"] as? String, "Manifest")
        XCTAssertEqual((json["label"] as? [String: [String]])?["none"], ["Photos"])
        let items = try XCTUnwrap(json["items"] as? [[String: Any]])
        XCTAssertEqual(items.count, 2)
        XCTAssertEqual(items[0]["type"] as? String, "Canvas")
        XCTAssertEqual((items[0]["label"] as? [String: [String]])?["none"], ["Beach \"2\""])
        XCTAssertEqual(items[0]["width"] as? Int, 4000)
        let page = try XCTUnwrap((items[0]["items"] as? [[String: Any]])?.first)
        XCTAssertEqual(page["type"] as? String, "AnnotationPage")
        let annotation = try XCTUnwrap((page["items"] as? [[String: Any]])?.first)
        XCTAssertEqual(annotation["motivation"] as? String, "painting")
        XCTAssertEqual(annotation["target"] as? String, "http://h/photos/3/canvas")
        let body = try XCTUnwrap(annotation["body"] as? [String: Any])
        XCTAssertEqual(body["id"] as? String, "http://h/iiif/3/3/full/max/0/default.jpg")
        let service = try XCTUnwrap((body["service"] as? [[String: Any]])?.first)
        XCTAssertEqual(service["id"] as? String, "http://h/iiif/3/3")
        XCTAssertEqual(service["type"] as? String, "ImageService3")
        let thumbnail = try XCTUnwrap((items[0]["thumbnail"] as? [[String: Any]])?.first)
        XCTAssertEqual(thumbnail["format"] as? String, "image/jpeg")
    }
}
