import XCTest
@testable import IIIF

/// The request grammar as a table: every example URL of the Image API 3.0 specification (on its
/// 300×200 example image), then the edges of each parameter.
final class ImageRequestGrammarTests: XCTestCase {
    typealias Q = ImageRequest.Quality

    /// A path after the identifier, the answer's size before rotation, and the canonical form.
    struct Case {
        let path: String
        let region: PixelRegion
        let size: (Int, Int)
        let canonical: String
        var limits = ImageLimits()
        let line: UInt
    }

    func resolve(_ path: String, width: Int = 300, height: Int = 200, limits: ImageLimits = ImageLimits()) throws -> ResolvedImageRequest {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        precondition(parts.count == 4, path)
        let request = try ImageRequest(region: parts[0], size: parts[1], rotation: parts[2], qualityAndFormat: parts[3])
        return try request.resolved(width: width, height: height, limits: limits)
    }

    func testEveryExampleOfTheSpecification() throws {
        let r = { (x: Int, y: Int, w: Int, h: Int) in PixelRegion(x: x, y: y, width: w, height: h) }
        let full = r(0, 0, 300, 200)
        let cases: [Case] = [
            // 4.1 Region.
            Case(path: "full/max/0/default.jpg", region: full, size: (300, 200), canonical: "full/max/0/default.jpg", line: #line),
            Case(path: "square/max/0/default.jpg", region: r(50, 0, 200, 200), size: (200, 200), canonical: "50,0,200,200/max/0/default.jpg", line: #line),
            Case(path: "125,15,120,140/max/0/default.jpg", region: r(125, 15, 120, 140), size: (120, 140), canonical: "125,15,120,140/max/0/default.jpg", line: #line),
            Case(path: "pct:41.6,7.5,40,70/max/0/default.jpg", region: r(125, 15, 120, 140), size: (120, 140), canonical: "125,15,120,140/max/0/default.jpg", line: #line),
            // "N.B. Returned image is 175,185 px", for both.
            Case(path: "125,15,200,200/max/0/default.jpg", region: r(125, 15, 175, 185), size: (175, 185), canonical: "125,15,175,185/max/0/default.jpg", line: #line),
            Case(path: "pct:41.6,7.5,66.6,100/max/0/default.jpg", region: r(125, 15, 175, 185), size: (175, 185), canonical: "125,15,175,185/max/0/default.jpg", line: #line),
            // 4.2 Size; the first pair assume maxWidth 200 and 360.
            Case(path: "full/max/0/default.jpg", region: full, size: (200, 133), canonical: "full/max/0/default.jpg", limits: ImageLimits(maxWidth: 200), line: #line),
            Case(path: "full/^max/0/default.jpg", region: full, size: (360, 240), canonical: "full/^max/0/default.jpg", limits: ImageLimits(maxWidth: 360), line: #line),
            Case(path: "full/150,/0/default.jpg", region: full, size: (150, 100), canonical: "full/150,100/0/default.jpg", line: #line),
            Case(path: "full/^360,/0/default.jpg", region: full, size: (360, 240), canonical: "full/^360,240/0/default.jpg", line: #line),
            Case(path: "full/,150/0/default.jpg", region: full, size: (225, 150), canonical: "full/225,150/0/default.jpg", line: #line),
            // The specification prints this one as ",^240"; the grammar's form is "^,240".
            Case(path: "full/^,240/0/default.jpg", region: full, size: (360, 240), canonical: "full/^360,240/0/default.jpg", line: #line),
            Case(path: "full/pct:50/0/default.jpg", region: full, size: (150, 100), canonical: "full/150,100/0/default.jpg", line: #line),
            Case(path: "full/^pct:120/0/default.jpg", region: full, size: (360, 240), canonical: "full/^360,240/0/default.jpg", line: #line),
            Case(path: "full/225,100/0/default.jpg", region: full, size: (225, 100), canonical: "full/225,100/0/default.jpg", line: #line),
            Case(path: "full/^360,360/0/default.jpg", region: full, size: (360, 360), canonical: "full/^360,360/0/default.jpg", line: #line),
            // "N.B. Returned image is 150,100 px" and "360,240 px".
            Case(path: "full/!225,100/0/default.jpg", region: full, size: (150, 100), canonical: "full/150,100/0/default.jpg", line: #line),
            Case(path: "full/^!360,360/0/default.jpg", region: full, size: (360, 240), canonical: "full/^360,240/0/default.jpg", line: #line),
            // 4.3 Rotation.
            Case(path: "full/max/180/default.jpg", region: full, size: (300, 200), canonical: "full/max/180/default.jpg", line: #line),
            Case(path: "full/max/90/default.jpg", region: full, size: (300, 200), canonical: "full/max/90/default.jpg", line: #line),
            Case(path: "full/max/22.5/default.png", region: full, size: (300, 200), canonical: "full/max/22.5/default.png", line: #line),
            Case(path: "full/max/!0/default.jpg", region: full, size: (300, 200), canonical: "full/max/!0/default.jpg", line: #line),
            Case(path: "full/max/!180/default.jpg", region: full, size: (300, 200), canonical: "full/max/!180/default.jpg", line: #line),
            // 4.4 Quality and 4.5 Format.
            Case(path: "full/max/0/color.jpg", region: full, size: (300, 200), canonical: "full/max/0/color.jpg", line: #line),
            Case(path: "full/max/0/gray.jpg", region: full, size: (300, 200), canonical: "full/max/0/gray.jpg", line: #line),
            Case(path: "full/max/0/bitonal.jpg", region: full, size: (300, 200), canonical: "full/max/0/bitonal.jpg", line: #line),
            Case(path: "full/max/0/default.png", region: full, size: (300, 200), canonical: "full/max/0/default.png", line: #line),
            Case(path: "full/max/0/default.tif", region: full, size: (300, 200), canonical: "full/max/0/default.tif", line: #line),
            // 4.6 Order of implementation.
            Case(path: "125,15,120,140/90,/!345/gray.jpg", region: r(125, 15, 120, 140), size: (90, 105), canonical: "125,15,120,140/90,105/!345/gray.jpg", line: #line),
            // 9 URI encoding (with a format: the table leaves it off).
            Case(path: "0,10,100,200/pct:50/90/default.png", region: r(0, 10, 100, 190), size: (50, 95), canonical: "0,10,100,190/50,95/90/default.png", line: #line),
            Case(path: "pct:10,10,80,80/50,/22.5/color.jpg", region: r(30, 20, 240, 160), size: (50, 33), canonical: "30,20,240,160/50,33/22.5/color.jpg", line: #line),
            Case(path: "full/max/270/gray.jpg", region: full, size: (300, 200), canonical: "full/max/270/gray.jpg", line: #line),
            // 4.8 Canonical link header example.
            Case(path: "full/400,300/0/default.jpg", region: r(0, 0, 800, 600), size: (400, 300), canonical: "full/400,300/0/default.jpg", line: #line),
        ]
        for c in cases {
            let (width, height) = c.path == "full/400,300/0/default.jpg" ? (800, 600) : (300, 200)
            let resolved: ResolvedImageRequest
            do {
                resolved = try resolve(c.path, width: width, height: height, limits: c.limits)
            } catch {
                XCTFail("\(c.path): \(error)", line: c.line)
                continue
            }
            XCTAssertEqual(resolved.region, c.region, c.path, line: c.line)
            XCTAssertEqual(resolved.width, c.size.0, c.path, line: c.line)
            XCTAssertEqual(resolved.height, c.size.1, c.path, line: c.line)
            XCTAssertEqual(resolved.canonicalPath, c.canonical, c.path, line: c.line)
            // The canonical form asks for the same thing.
            XCTAssertEqual(try resolve(c.canonical, width: width, height: height, limits: c.limits).canonicalPath, c.canonical,
                           c.path, line: c.line)
        }
    }

    func testParsedValues() throws {
        func parse(_ path: String) throws -> ImageRequest {
            let p = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
            return try ImageRequest(region: p[0], size: p[1], rotation: p[2], qualityAndFormat: p[3])
        }
        XCTAssertEqual(try parse("full/max/0/default.jpg"), ImageRequest())
        XCTAssertEqual(try parse("pct:.5,0.25,100,100/^!10,20/!22.5/bitonal.webp"),
                       ImageRequest(region: .percent(x: 0.5, y: 0.25, width: 100, height: 100),
                                    size: .init(.confined(width: 10, height: 20), upscaling: true),
                                    rotation: .init(mirrored: true, degrees: 22.5), quality: .bitonal, format: .webp))
        XCTAssertEqual(try parse("1,2,3,4/^pct:150/360/gray.gif").size, .init(.percent(150), upscaling: true))
        XCTAssertEqual(try parse("square/,7/0/color.png").size, .init(.height(7)))
        XCTAssertEqual(try parse("square/7,/0/color.png").size, .init(.width(7)))
        XCTAssertEqual(try parse("square/^max/0/color.png").size, .init(.max, upscaling: true))
    }

    func testBadSyntaxIs400() {
        let bad = [
            // Region.
            "ful/max/0/default.jpg", "0,0,10/max/0/default.jpg", "0,0,10,10,1/max/0/default.jpg", "-1,0,10,10/max/0/default.jpg",
            "0,0,0,10/max/0/default.jpg", "0,0,10,0/max/0/default.jpg", "1.5,0,10,10/max/0/default.jpg", "pct:0,0,0,10/max/0/default.jpg",
            "pct:+0.9,0,10,10/max/0/default.jpg", "pct:1e2,0,10,10/max/0/default.jpg", "pct:1.,0,10,10/max/0/default.jpg",
            "pct:1..2,0,10,10/max/0/default.jpg", "x,y,w,h/max/0/default.jpg", "/max/0/default.jpg",
            // Size: 3.0 has no "full"; forms and numbers.
            "full/full/0/default.jpg", "full/,/0/default.jpg", "full/!10,/0/default.jpg", "full/!,10/0/default.jpg", "full/0,/0/default.jpg",
            "full/,0/0/default.jpg", "full/pct:0/0/default.jpg", "full/pct:/0/default.jpg", "full/^/0/default.jpg", "full/^^max/0/default.jpg",
            "full/,^240/0/default.jpg", "full/10.5,/0/default.jpg", "full/1,2,3/0/default.jpg", "full/MAX/0/default.jpg", "full//0/default.jpg",
            "full/1234567890,/0/default.jpg",
            // Rotation.
            "full/max/-90/default.jpg", "full/max/361/default.jpg", "full/max/360.5/default.jpg", "full/max/!!90/default.jpg",
            "full/max/90!/default.jpg", "full/max/+90/default.jpg", "full/max//default.jpg", "full/max/abc/default.jpg",
            // Quality and format.
            "full/max/0/default", "full/max/0/grey.jpg", "full/max/0/Default.jpg", "full/max/0/default.JPG", "full/max/0/default.jpeg",
            "full/max/0/.jpg", "full/max/0/default.", "full/max/0/default.jpg.png",
        ]
        for path in bad {
            XCTAssertThrowsError(try resolve(path), path) { error in
                XCTAssertEqual((error as? ImageRequestError)?.kind, .badRequest, path)
                XCTAssertFalse((error as? ImageRequestError)?.message.isEmpty ?? true)
            }
        }
    }

    func testFormatsNamedByTheSpecificationButNotMadeAre501() {
        for path in ["full/max/0/default.jp2", "full/max/0/default.pdf"] {
            XCTAssertThrowsError(try resolve(path), path) { error in
                XCTAssertEqual((error as? ImageRequestError)?.kind, .notImplemented, path)
            }
        }
    }

    func testRegionsOutsideOrEmptyAre400AndPartlyOutsideAreClipped() throws {
        for path in ["300,0,10,10/max/0/default.jpg", "0,200,10,10/max/0/default.jpg", "pct:100,0,10,10/max/0/default.jpg",
                     "pct:0,99.9,10,0.01/max/0/default.jpg"] {
            XCTAssertThrowsError(try resolve(path), path)
        }
        XCTAssertEqual(try resolve("299,199,10,10/max/0/default.jpg").region, PixelRegion(x: 299, y: 199, width: 1, height: 1))
        XCTAssertEqual(try resolve("pct:0,0,200,200/max/0/default.jpg").region, PixelRegion(x: 0, y: 0, width: 300, height: 200))
        // A tall image's square is centred vertically.
        XCTAssertEqual(try resolve("square/max/0/default.jpg", width: 200, height: 301).region, PixelRegion(x: 0, y: 50, width: 200, height: 200))
    }

    func testUpscalingNeedsTheCaret() throws {
        for path in ["full/301,/0/default.jpg", "full/,201/0/default.jpg", "full/301,200/0/default.jpg", "full/300,201/0/default.jpg",
                     "full/pct:100.5/0/default.jpg", "full/pct:120/0/default.jpg", "10,10,10,10/11,/0/default.jpg",
                     // A box larger than the region on both sides would scale it up to fill the box.
                     "full/!2000,3000/0/default.jpg", "full/!400,300/0/default.jpg"] {
            XCTAssertThrowsError(try resolve(path), path) { error in
                XCTAssertEqual((error as? ImageRequestError)?.kind, .badRequest, path)
                XCTAssertTrue((error as? ImageRequestError)?.message.contains("^") ?? false, path)
            }
        }
        // Exactly the region's size, a box as wide as the region, or a caret without any need: fine.
        XCTAssertEqual(try resolve("full/300,/0/default.jpg").canonicalPath, "full/max/0/default.jpg")
        XCTAssertEqual(try resolve("full/!300,1000/0/default.jpg").canonicalPath, "full/max/0/default.jpg")
        XCTAssertEqual(try resolve("full/^150,/0/default.jpg").canonicalPath, "full/150,100/0/default.jpg")
        XCTAssertEqual(try resolve("full/^!2000,500/0/default.jpg", width: 1000, height: 1000).width, 500)
        let up = try resolve("full/^!2000,3000/0/default.jpg", width: 1000, height: 1000)
        XCTAssertEqual([up.width, up.height], [2000, 2000])
        XCTAssertTrue(up.upscaled)
        // With only an area limit, ^max is the region's own size.
        XCTAssertEqual(try resolve("full/^max/0/default.jpg", width: 1000, height: 1000).canonicalPath, "full/max/0/default.jpg")
    }

    func testLimits() throws {
        let limits = ImageLimits(maxArea: 10_000, maxWidth: 150, maxHeight: 90)
        // max and !w,h are fitted to the limits; explicit sizes beyond them are refused.
        let max = try resolve("full/max/0/default.jpg", limits: limits)
        XCTAssertEqual([max.width, max.height], [122, 81])
        XCTAssertLessThanOrEqual(max.width * max.height, 10_000)
        let confined = try resolve("full/!200,200/0/default.jpg", limits: limits)
        XCTAssertTrue(limits.allows(width: confined.width, height: confined.height))
        for path in ["full/151,/0/default.jpg", "full/,91/0/default.jpg", "full/120,90/0/default.jpg", "full/pct:60/0/default.jpg"] {
            XCTAssertThrowsError(try resolve(path, limits: limits), path)
        }
        XCTAssertNoThrow(try resolve("full/110,90/0/default.jpg", limits: limits))
        // maxHeight defaults to maxWidth.
        XCTAssertEqual(ImageLimits(maxWidth: 100).effectiveMaxHeight, 100)
        XCTAssertFalse(ImageLimits(maxWidth: 100).allows(width: 50, height: 101))
        // ^max grows to maxWidth × maxHeight, still within the area.
        let upMax = try resolve("full/^max/0/default.jpg", limits: ImageLimits(maxArea: 1_000_000, maxWidth: 600, maxHeight: 600))
        XCTAssertEqual([upMax.width, upMax.height], [600, 400])
        XCTAssertEqual(upMax.canonicalPath, "full/^max/0/default.jpg")
    }

    /// Every limit holds for the answer as sent, after rotation: the 45° turn of a `max` that
    /// fills maxArea is shrunk until its bounding box fits (it answered 10102×10102, twice
    /// maxArea, on a 10000×7500 photo); an exact size whose turn breaks a limit is refused.
    func testLimitsHoldAfterRotation() throws {
        let limits = ImageLimits(maxArea: 50_000_000)
        let turned = try resolve("0,0,10000,7500/max/45/default.png", width: 10000, height: 7500, limits: limits)
        let answer = turned.answerSize
        XCTAssertLessThanOrEqual(answer.width * answer.height, 50_000_000, "\(answer)")
        XCTAssertGreaterThan(answer.width * answer.height, 49_000_000, "shrunk no more than the limit needs: \(answer)")
        XCTAssertEqual(turned.canonicalPath, "full/max/45/default.png", "still max: as large as the limits allow")
        XCTAssertEqual(ImageRequest.turnedBox(width: 8164, height: 6123, degrees: 45).width, 10102, "libvips' bounding box")
        // Quarter turns swap the sides, so maxWidth and maxHeight trade places.
        let wide = ImageLimits(maxArea: 1_000_000, maxWidth: 300, maxHeight: 100)
        let upright = try resolve("full/max/90/default.jpg", width: 300, height: 200, limits: wide)
        XCTAssertLessThanOrEqual(upright.answerSize.width, 300)
        XCTAssertLessThanOrEqual(upright.answerSize.height, 100)
        XCTAssertEqual(upright.answerSize.height, 100)
        let boxed = try resolve("full/!300,300/30/default.png", width: 300, height: 200, limits: ImageLimits(maxArea: 40_000))
        XCTAssertLessThanOrEqual(boxed.answerSize.width * boxed.answerSize.height, 40_000)
        XCTAssertThrowsError(try resolve("full/300,200/45/default.jpg", width: 300, height: 200, limits: ImageLimits(maxArea: 60_000)),
                             "an exact size whose turned box is over maxArea")
        XCTAssertNoThrow(try resolve("full/300,200/0/default.jpg", width: 300, height: 200, limits: ImageLimits(maxArea: 60_000)))
        XCTAssertThrowsError(try resolve("full/300,100/90/default.jpg", width: 300, height: 200, limits: wide),
                             "300×100 turned is 100×300: taller than maxHeight")
        for degrees in stride(from: 0.0, to: 360, by: 7.5) {
            let r = try resolve("full/max/\(degrees)/default.png", width: 4000, height: 3000, limits: ImageLimits(maxArea: 1_000_000))
            XCTAssertLessThanOrEqual(r.answerSize.width * r.answerSize.height, 1_000_000, "\(degrees)°")
        }
    }

    func testRotationIsNormalisedAndSpelled() throws {
        XCTAssertEqual(try resolve("full/max/360/default.jpg").degrees, 0)
        XCTAssertEqual(try resolve("full/max/360/default.jpg").canonicalPath, "full/max/0/default.jpg")
        XCTAssertEqual(try resolve("full/max/90.0/default.jpg").canonicalPath, "full/max/90/default.jpg")
        XCTAssertEqual(try resolve("full/max/!0.50/default.jpg").canonicalPath, "full/max/!0.5/default.jpg")
        XCTAssertTrue(try resolve("full/max/!0/default.jpg").mirrored)
        XCTAssertTrue(ImageRequest.Rotation(degrees: 270).isQuarterTurns)
        XCTAssertFalse(ImageRequest.Rotation(degrees: 22.5).isQuarterTurns)
        XCTAssertTrue(try resolve("full/max/0/color.jpg").isPlainColor)
        XCTAssertFalse(try resolve("full/max/0/gray.jpg").isPlainColor)
        XCTAssertFalse(try resolve("full/max/!0/default.jpg").isPlainColor)
    }

    /// The specification's tile calculation (implementation notes, section 3) against a 1000×700
    /// image with 256-pixel tiles: every tile at every scale factor resolves to exactly the size
    /// the note computes, and its canonical form keeps region and size.
    func testTileRequestsOfTheImplementationNotes() throws {
        let (width, height, tile) = (1000, 700, 256)
        for s in [1, 2, 4] {
            for n in 0..<((width + tile * s - 1) / (tile * s)) {
                for m in 0..<((height + tile * s - 1) / (tile * s)) {
                    let xr = n * tile * s, yr = m * tile * s
                    var wr = tile * s, hr = tile * s
                    if xr + wr > width { wr = width - xr }
                    if yr + hr > height { hr = height - yr }
                    var ws = tile, hs = tile
                    if xr + tile * s > width { ws = (width - xr + s - 1) / s }
                    if yr + tile * s > height { hs = (height - yr + s - 1) / s }
                    let resolved = try resolve("\(xr),\(yr),\(wr),\(hr)/\(ws),\(hs)/0/default.jpg", width: width, height: height)
                    XCTAssertEqual(resolved.region, PixelRegion(x: xr, y: yr, width: wr, height: hr))
                    XCTAssertEqual([resolved.width, resolved.height], [ws, hs])
                }
            }
        }
    }
}
