import Foundation
import XCTest
@testable import Imaging

/// Drawing a demo photo starts libvips through `Vips.initialize`, which blocks the loaders
/// libvips marks untrusted, even when it is the first thing the process asks of libvips.
final class DemoImageStartupTests: XCTestCase {
    func testDrawingADemoPhotoBlocksUntrustedLoaders() throws {
        let directory = NSTemporaryDirectory() + "demo-startup-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // PGM is read by ppmload, which libvips flags untrusted.
        try Data("P2\n2 2\n255\n1 2 3 4\n".utf8).write(to: URL(fileURLWithPath: directory + "/grey.pgm"))

        try DemoImage.write(to: directory + "/demo.jpg", width: 64, height: 48)

        XCTAssertTrue(Vips.isInitialized, "the demo photo went through the one initialiser")
        XCTAssertNil(VipsImage.loader(for: directory + "/grey.pgm"), "an untrusted loader is blocked")
        XCTAssertThrowsError(try VipsImage.open(directory + "/grey.pgm", access: .sequential))
        XCTAssertNotNil(VipsImage.loader(for: directory + "/demo.jpg"), "JPEG, a trusted loader, still reads")
    }

    /// The test above in a process of its own, where no other test has started libvips first.
    func testDemoPhotoAsTheFirstUseOfLibvips() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe")
        process.arguments = ["ImagingTests.DemoImageStartupTests/testDrawingADemoPhotoBlocksUntrustedLoaders"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, text)
        XCTAssertTrue(text.contains("Executed 1 test, with 0 failures"), text)
    }
}
