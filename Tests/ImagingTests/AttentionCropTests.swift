import Foundation
import XCTest
@testable import Imaging

/// The square thumbnails' crop: what draws the eye is kept, where libvips' smartcrop would put it.
final class AttentionCropTests: XCTestCase {
    private var fixtures: Fixtures!

    override func setUpWithError() throws { fixtures = try Fixtures() }
    override func tearDown() { fixtures = nil }

    /// A picture of `width` × `height`: a grey ground with a little noise, and `subjects` drawn on it.
    /// The noise makes each row of the ground its own, so where a crop was cut can be found.
    private struct Scene {
        enum Subject { case disc(x: Int, y: Int, radius: Int, colour: RGB), checks(x: Int, y: Int, side: Int) }
        let width: Int, height: Int, subjects: [Subject]

        func pixels(seed: UInt64) -> [UInt8] {
            var state = seed
            var rgb = [UInt8](repeating: 0, count: width * height * 3)
            rgb.withUnsafeMutableBufferPointer { rgb in
                for i in 0..<rgb.count {
                    state = state &* 6364136223846793005 &+ 1442695040888963407
                    rgb[i] = UInt8(117 + Int(state >> 61))
                }
                func paint(_ x: Int, _ y: Int, _ colour: RGB) {
                    guard (0..<width).contains(x), (0..<height).contains(y) else { return }
                    let i = 3 * (y * width + x)
                    rgb[i] = colour.red; rgb[i + 1] = colour.green; rgb[i + 2] = colour.blue
                }
                for subject in subjects {
                    switch subject {
                    case let .disc(cx, cy, radius, colour):
                        for y in cy - radius...cy + radius {
                            for x in cx - radius...cx + radius where (x - cx) * (x - cx) + (y - cy) * (y - cy) <= radius * radius {
                                paint(x, y, colour)
                            }
                        }
                    case let .checks(cx, cy, side):
                        for y in cy - side / 2...cy + side / 2 {
                            for x in cx - side / 2...cx + side / 2 {
                                paint(x, y, (x / 6 + y / 6) % 2 == 0 ? RGB(red: 20, green: 20, blue: 20) : RGB(red: 240, green: 240, blue: 240))
                            }
                        }
                    }
                }
            }
            return rgb
        }

        func image(_ rgb: [UInt8]) throws -> VipsImage {
            try rgb.withUnsafeBufferPointer { try VipsImage.rgb($0.baseAddress!, width: width, height: height) }
        }
    }

    /// Where a square crop of a Scene's picture was cut along its long side: the offset at which
    /// the crop's first row is the picture's. (Subjects are drawn away from the edges the crop's
    /// first row can lie on, so that row is noise and matches at one offset only.)
    private func origin(of crop: VipsImage, in scene: Scene, pixels: [UInt8]) throws -> Int {
        let cropped = try crop.memoryBytes()
        let row = Array(cropped[0..<crop.width * 3])
        let offsets = 0...(max(scene.width, scene.height) - crop.width)
        let found = pixels.withUnsafeBytes { picture in
            row.withUnsafeBytes { row in
                offsets.filter { offset in
                    let start = scene.width > scene.height ? 3 * offset : 3 * offset * scene.width
                    return memcmp(picture.baseAddress! + start, row.baseAddress!, row.count) == 0
                }
            }
        }
        XCTAssertEqual(found.count, 1, "the crop's first row is in the picture once")
        return found.first ?? -1
    }

    private static let skin = RGB(red: 224, green: 172, blue: 140)
    private static let red = RGB(red: 220, green: 30, blue: 40)
    private static let blue = RGB(red: 30, green: 60, blue: 210)

    private func scenes() -> [Scene] {
        var scenes: [Scene] = []
        for (width, height) in [(768, 256), (256, 768), (600, 256), (256, 420), (1100, 256)] {
            let long = max(width, height)
            for place in [0.1, 0.35, 0.62, 0.9] {
                let along = Int(Double(long) * place)
                let (x, y) = width > height ? (along, height / 2) : (width / 2, along)
                scenes.append(Scene(width: width, height: height, subjects: [.disc(x: x, y: y, radius: 40, colour: Self.skin)]))
                scenes.append(Scene(width: width, height: height, subjects: [.disc(x: x, y: y, radius: 30, colour: Self.red)]))
                scenes.append(Scene(width: width, height: height, subjects: [.checks(x: x, y: y, side: 60)]))
                scenes.append(Scene(width: width, height: height, subjects: [.disc(x: x, y: y, radius: 36, colour: Self.blue)]))
            }
        }
        return scenes
    }

    /// A single subject anywhere along the long side is inside the square crop.
    func testTheSubjectIsInsideTheCrop() throws {
        for (n, scene) in scenes().enumerated() {
            let pixels = scene.pixels(seed: UInt64(n + 1))
            let image = try scene.image(pixels)
            let (x, y) = try image.attentionOrigin(width: 256, height: 256)
            let cropped = try image.croppedToAttention(width: 256, height: 256)
            XCTAssertEqual([cropped.width, cropped.height], [256, 256])
            XCTAssertEqual(try origin(of: cropped, in: scene, pixels: pixels), scene.width > scene.height ? x : y,
                           "the crop is cut where the measure says")
            for case let .disc(cx, cy, radius, _) in scene.subjects {
                XCTAssert(x <= cx - radius && cx + radius <= x + 256 && y <= cy - radius && cy + radius <= y + 256,
                          "\(scene.width)×\(scene.height): the disc at (\(cx), \(cy)) is outside the crop at (\(x), \(y))")
            }
            for case let .checks(cx, cy, side) in scene.subjects {
                XCTAssert(x <= cx - side / 2 && cx + side / 2 <= x + 256 && y <= cy - side / 2 && cy + side / 2 <= y + 256,
                          "\(scene.width)×\(scene.height): the checks at (\(cx), \(cy)) are outside the crop at (\(x), \(y))")
            }
        }
    }

    /// The same place as libvips' smartcrop (its attention measure, which this one follows), within
    /// two cells of the 32-cell grid both search, on every scene, and with two subjects of
    /// different pull, the same one.
    func testTheCropIsWhereLibvipsWouldCutIt() throws {
        var scenes = scenes()
        for (width, height) in [(768, 256), (256, 768)] {
            let long = max(width, height)
            for (a, b) in [(0.2, 0.8), (0.8, 0.2), (0.15, 0.6)] {
                func at(_ place: Double) -> (Int, Int) {
                    width > height ? (Int(Double(long) * place), height / 2) : (width / 2, Int(Double(long) * place))
                }
                let (ax, ay) = at(a), (bx, by) = at(b)
                scenes.append(Scene(width: width, height: height, subjects: [
                    .disc(x: ax, y: ay, radius: 50, colour: Self.skin), .disc(x: bx, y: by, radius: 15, colour: Self.blue),
                ]))
            }
        }
        for (n, scene) in scenes.enumerated() {
            let pixels = scene.pixels(seed: UInt64(n + 1))
            let image = try scene.image(pixels)
            let ours = try image.attentionOrigin(width: 256, height: 256)
            let theirs = try origin(of: try image.croppedToLibvipsAttention(width: 256, height: 256), in: scene, pixels: pixels)
            let cell = Double(max(scene.width, scene.height)) / 32
            let along = scene.width > scene.height ? ours.x : ours.y
            XCTAssertLessThanOrEqual(Double(abs(along - theirs)), 2 * cell,
                                     "\(scene.width)×\(scene.height) \(scene.subjects): ours at \(along), libvips' at \(theirs)")
        }
    }

    /// Nothing to look at: the middle.
    func testAnEmptyPictureIsCroppedAboutItsCentre() throws {
        let rgb = [UInt8](repeating: 128, count: 900 * 256 * 3)
        let image = try rgb.withUnsafeBufferPointer { try VipsImage.rgb($0.baseAddress!, width: 900, height: 256) }
        let (x, y) = try image.attentionOrigin(width: 256, height: 256)
        XCTAssertEqual(y, 0)
        XCTAssertEqual(Double(x), Double(900 - 256) / 2, accuracy: 900 / 32)
    }

    /// Through the whole thumbnail: a face-coloured subject at one end of a wide photo fills the square.
    func testAThumbnailKeepsTheSubjectAtTheEnd() throws {
        let path = try fixtures.ppm("wide.ppm", width: 1200, height: 400) { x, y in
            (x - 1050) * (x - 1050) + (y - 200) * (y - 200) <= 100 * 100 ? Self.skin : RGB(red: 110, green: 130, blue: 150)
        }
        try fixtures.vips("copy", path, fixtures.path("wide.png"))
        var settings = RenderSettings()
        settings.thumbnailSize = 256
        let thumbnail = try fixtures.decode(try PhotoRenderer.thumbnail(source: fixtures.path("wide.png"), settings: settings))
        XCTAssertEqual([thumbnail.width, thumbnail.height], [256, 256])
        // Scaled to 768 × 256, the disc is 128 wide: all of it is in the square's middle row.
        var skin = 0
        for x in 0..<256 {
            let pixel = try thumbnail.pixel(x: x, y: 128)
            if abs(pixel[0] - 224) < 20, abs(pixel[1] - 172) < 20, abs(pixel[2] - 140) < 20 { skin += 1 }
        }
        XCTAssertGreaterThanOrEqual(skin, 120, "the disc is in the thumbnail, whole")
    }
}
