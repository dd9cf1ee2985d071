import Foundation
import XCTest
@testable import Imaging
import TestSupport

/// A render can be stopped midway, by another thread (its client went away) or by its own
/// deadline, in each part that takes time: libvips' pipelines, the row-by-row crop, the tile
/// decoder. What it had allocated is let go as it unwinds.
final class RenderStopTests: XCTestCase {
    var fixtures: Fixtures!
    let settings = RenderSettings(jpegQuality: 85)

    override func setUpWithError() throws { fixtures = try Fixtures() }
    override func tearDown() { fixtures = nil }

    /// A turned, full-size PNG of a 2400×1800 photo: long enough that a stop lands inside it.
    var heavy: RegionRendition {
        RegionRendition(region: PixelRect(x: 0, y: 0, width: 2400, height: 1800), width: 2400, height: 1800, degrees: 33, format: .png)
    }

    /// A stop whose time is up partway through the photo's file (at its third read, not after
    /// 20 ms, which a loaded machine may spend before the first): the render ends there, with
    /// the deadline's own error, having read less of the file than the whole render does.
    func testADeadlineStopsARenderFromThePhoto() throws {
        let source = try fixtures.gradient("big.jpg", width: 2400, height: 1800)
        let whole = RenderStop(seconds: 600)
        XCTAssertNoThrow(try PhotoRenderer.renderRegion(source: source, heavy, settings: settings, stop: whole))
        XCTAssertGreaterThan(whole.reads, 3, "the whole render reads the file in many parts")
        let deadline = RenderStop(seconds: 600, expiringAfterReads: 3)
        XCTAssertThrowsError(try PhotoRenderer.renderRegion(source: source, heavy, settings: settings, stop: deadline)) {
            XCTAssertEqual($0 as? ImagingError, .tookTooLong(seconds: 600))
        }
        XCTAssertLessThan(deadline.reads, whole.reads, "the stopped render ran on")
    }

    /// A deadline is told by the clock: once its seconds have passed, the stop says so.
    func testADeadlineComesWithItsTime() {
        let stop = RenderStop(seconds: 0.001)
        XCTAssertTrue(eventually(timeout: 10) { stop.reason == .tookTooLong(seconds: 0.001) }, "the time passed unnoticed")
        XCTAssertNil(RenderStop(seconds: 600).reason)
    }

    /// A progressive JPEG's decoder takes in every scan of the file before it gives its first
    /// row, in one call no guarded region interrupts: the stop is asked before each read of the
    /// file, so the render ends there instead of when the whole file has been taken in.
    /// A progressive JPEG's decoder takes in the whole file in one call before its first row:
    /// the stop is asked at each of its reads, so it ends there, not after the file. Counted in
    /// reads, so the test says the same on a loaded machine as on a quiet one.
    func testAStopEndsAProgressiveJPEGWhileItsDecoderTakesInTheFile() throws {
        // Noise: long scans, a file of many reads.
        try fixtures.vips("gaussnoise", fixtures.path("noise.v"), "3200", "2400", "--sigma", "60", "--mean", "128")
        let source = fixtures.path("progressive.jpg")
        try fixtures.vips("copy", fixtures.path("noise.v"), source + "[interlace,Q=95]")
        let small = RegionRendition(region: PixelRect(x: 0, y: 0, width: 3200, height: 2400), width: 400, height: 300, degrees: 0, format: .jpeg)
        let whole = RenderStop(seconds: 600)
        XCTAssertNoThrow(try PhotoRenderer.renderRegion(source: source, small, settings: settings, stop: whole))
        XCTAssertGreaterThan(whole.reads, 20, "the whole file takes many reads")
        let stop = RenderStop(cancellingAfterReads: 3)
        XCTAssertThrowsError(try PhotoRenderer.renderRegion(source: source, small, settings: settings, stop: stop)) {
            XCTAssertEqual($0 as? ImagingError, .cancelled)
        }
        XCTAssertEqual(stop.reads, 3, "the decoder read on past the stop")
    }

    func testCancellingFromAnotherThreadStopsARenderFromThePyramid() throws {
        let source = try fixtures.gradient("big.jpg", width: 2400, height: 1800)
        let directory = fixtures.path("pyramid")
        let pyramid = try PhotoRenderer.buildPyramid(source: source, into: directory, settings: settings)
        let stop = RenderStop()
        stop.cancel()
        XCTAssertThrowsError(try PhotoRenderer.renderRegion(pyramid: pyramid, directory: directory, heavy, settings: settings, stop: stop)) {
            XCTAssertEqual($0 as? ImagingError, .cancelled)
        }
        // Midway: the stop fires while libvips computes the turned image.
        let midway = RenderStop()
        let image = try VipsImage.open(source, access: .sequential).rotated(degrees: 33, background: [0, 0, 0])
        let guarded = try image.guarded(by: midway)
        DispatchQueue.global().async { midway.cancel() }
        XCTAssertThrowsError(try midway.guarding { try guarded.encoded(suffix: ".png") }) { XCTAssertEqual($0 as? ImagingError, .cancelled) }
        // A stopped computation leaves nothing behind: the same image renders whole afterwards.
        XCTAssertNoThrow(try PhotoRenderer.renderRegion(pyramid: pyramid, directory: directory, heavy, settings: settings, stop: RenderStop()))
    }

    func testTheStreamedCropAndTheTileDecoderStopToo() throws {
        let source = try fixtures.gradient("big.jpg", width: 2400, height: 1800)
        let stop = RenderStop()
        stop.cancel()
        let photo = try VipsImage.open(source, access: .sequential)
        XCTAssertThrowsError(try photo.streamedCrop(PixelRect(x: 0, y: 1000, width: 100, height: 100), stop: stop))
        let directory = fixtures.path("pyramid")
        _ = try PhotoRenderer.buildPyramid(source: source, into: directory, settings: settings)
        XCTAssertThrowsError(try VipsImage.decodedJPEGTiles([PhotoRenderer.tilePath(in: directory, TileCoordinate(z: 0, x: 0, y: 0))],
                                                            columns: 1, tileSize: 256, rect: PixelRect(x: 0, y: 0, width: 10, height: 10),
                                                            stop: stop))
        // A sequential decoder cannot go back: a new one reads the same rectangle whole.
        XCTAssertNoThrow(try VipsImage.open(source, access: .sequential).streamedCrop(PixelRect(x: 0, y: 1000, width: 100, height: 100), stop: RenderStop()))
    }
}
