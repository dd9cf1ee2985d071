import XCTest
@testable import Imaging

/// All eight EXIF orientations: the stored pixels are the upright reference turned the opposite way,
/// tagged so that applying the tag restores it; every output must show the upright reference.
final class OrientationTests: XCTestCase {
    private var fixtures: Fixtures!
    private let settings = RenderSettings()
    /// Upright size: wider than tall, and more than two tiles wide so native tiles differ from level 0.
    private let width = 600, height = 400

    override func setUpWithError() throws { fixtures = try Fixtures() }
    override func tearDown() { fixtures = nil }

    /// The `vips` operations that turn the upright reference into what a camera with this tag stores.
    private func storedTransform(_ orientation: Int) -> [[String]] {
        switch orientation {
        case 2: [["flip", "horizontal"]]
        case 3: [["rot", "d180"]]
        case 4: [["flip", "vertical"]]
        case 5: [["rot", "d90"], ["flip", "horizontal"]]  // transpose
        case 6: [["rot", "d270"]]  // the camera turned clockwise: undo by turning the stored pixels back
        case 7: [["rot", "d270"], ["flip", "horizontal"]]  // transverse
        case 8: [["rot", "d90"]]
        default: []
        }
    }

    private func taggedPhoto(_ orientation: Int) throws -> String {
        let reference = try fixtures.quadrants("upright-\(orientation).ppm", width: width, height: height)
        var current = reference
        for (step, operation) in storedTransform(orientation).enumerated() {
            let next = fixtures.path("step-\(orientation)-\(step).v")
            try fixtures.vips(operation[0], current, next, operation[1])
            current = next
        }
        let jpeg = fixtures.path("oriented-\(orientation).jpg")
        try fixtures.vips("copy", current, jpeg + "[Q=95]")
        try fixtures.addExif(to: jpeg, orientation: orientation)
        return jpeg
    }

    /// Samples the middle of each quadrant of an upright picture `image` that shows the level
    /// rectangle `rect` of a `levelWidth` × `levelHeight` level.
    private func assertQuadrants(_ image: VipsImage, rect: PixelRect, levelWidth: Int, levelHeight: Int,
                                 _ what: String, file: StaticString = #filePath, line: UInt = #line) throws {
        for (fx, fy) in [(0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)] {
            let lx = Int(Double(levelWidth) * fx), ly = Int(Double(levelHeight) * fy)
            guard lx >= rect.x, lx < rect.x + rect.width, ly >= rect.y, ly < rect.y + rect.height else { continue }
            let expected = Fixtures.quadrantColour(left: fx < 0.5, top: fy < 0.5)
            try assertPixel(image, lx - rect.x, ly - rect.y, is: expected, "\(what) at level (\(lx), \(ly))", file: file, line: line)
        }
    }

    func testEveryOrientationComesOutUpright() throws {
        for orientation in 1...8 {
            let photo = try taggedPhoto(orientation)
            let info = try PhotoRenderer.probe(photo, settings: settings)
            XCTAssertEqual(info, ImageInfo(width: width, height: height, orientation: orientation, format: "jpeg"))

            let directory = fixtures.path("pyramid-\(orientation)")
            let pyramid = try PhotoRenderer.buildPyramid(source: photo, into: directory, settings: settings)
            XCTAssertEqual([pyramid.width, pyramid.height], [width, height], "orientation \(orientation)")

            for z in [0, pyramid.maxZoom] {
                let level = pyramid.levelSize(z)!
                let grid = pyramid.grid(z)!
                for x in 0..<grid.columns {
                    for y in 0..<grid.rows {
                        let tile = TileCoordinate(z: z, x: x, y: y)
                        let rect = pyramid.rect(tile)!
                        guard rect.contains(x: level.width / 4, y: level.height / 4) || rect.contains(x: level.width * 3 / 4, y: level.height * 3 / 4)
                            || rect.contains(x: level.width / 4, y: level.height * 3 / 4) || rect.contains(x: level.width * 3 / 4, y: level.height / 4)
                        else { continue }  // no quadrant centre in this tile: nothing to compare
                        let built = try VipsImage.open(PhotoRenderer.tilePath(in: directory, tile), access: .random)
                        try assertQuadrants(built, rect: rect, levelWidth: level.width, levelHeight: level.height,
                                            "orientation \(orientation) pyramid tile \(tile)")
                        let rendered = try fixtures.decode(try PhotoRenderer.renderTile(source: photo, tile: tile, settings: settings))
                        XCTAssertEqual([rendered.width, rendered.height], [rect.width, rect.height], "orientation \(orientation) tile \(tile)")
                        try assertQuadrants(rendered, rect: rect, levelWidth: level.width, levelHeight: level.height,
                                            "orientation \(orientation) rendered tile \(tile)")
                        XCTAssertFalse(rendered.hasField("exif-data"), "orientation \(orientation): EXIF left in tile")
                    }
                }
            }

            // The thumbnail is a centre-ish square crop: its left half is red over blue, right half green over yellow.
            let thumbnail = try fixtures.decode(try PhotoRenderer.thumbnail(source: photo, settings: settings))
            try assertPixel(thumbnail, 20, 20, is: Fixtures.quadrantColour(left: true, top: true), "orientation \(orientation) thumbnail")
            try assertPixel(thumbnail, 235, 235, is: Fixtures.quadrantColour(left: false, top: false), "orientation \(orientation) thumbnail")
        }
    }

    func testStoredRectanglesRoundTrip() {
        // Mapping a rectangle back into stored pixels keeps its area and stays inside the stored photo.
        for raw in 1...8 {
            let orientation = ExifOrientation(rawValue: raw)!
            let rect = PixelRect(x: 256, y: 0, width: 44, height: 256)
            let stored = orientation.storedRect(of: rect, levelWidth: 300, levelHeight: 400)
            let storedWidth = orientation.swapsAxes ? 400 : 300, storedHeight = orientation.swapsAxes ? 300 : 400
            XCTAssertEqual(stored.width * stored.height, rect.width * rect.height)
            XCTAssertGreaterThanOrEqual(stored.x, 0)
            XCTAssertGreaterThanOrEqual(stored.y, 0)
            XCTAssertLessThanOrEqual(stored.x + stored.width, storedWidth, "orientation \(raw)")
            XCTAssertLessThanOrEqual(stored.y + stored.height, storedHeight, "orientation \(raw)")
        }
    }
}

private extension PixelRect {
    func contains(x px: Int, y py: Int) -> Bool { px >= x && px < x + width && py >= y && py < y + height }
}
