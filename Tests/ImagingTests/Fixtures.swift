import Foundation
import TestSupport
import XCTest
@testable import Imaging

/// Test photos made on the spot: pixels written as PPM by hand, converted by the `vips` command.
final class Fixtures {
    let directory: String

    init() throws {
        directory = NSTemporaryDirectory() + "imaging-tests-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try Vips.initialize()
    }

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    func path(_ name: String) -> String { directory + "/" + name }

    /// Runs the `vips` command line tool; fails the test with its message when it fails.
    @discardableResult
    func vips(_ arguments: String...) throws -> String { try vips(arguments) }

    @discardableResult
    func vips(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["vips"] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        guard process.terminationStatus == 0 else {
            throw FixtureError(message: "vips \(arguments.joined(separator: " ")): \(text)")
        }
        return text
    }

    /// A binary PPM whose pixel (x, y) is `colour(x, y)`.
    @discardableResult
    func ppm(_ name: String, width: Int, height: Int, colour: (Int, Int) -> RGB) throws -> String {
        var bytes = Array("P6\n\(width) \(height)\n255\n".utf8)
        bytes.reserveCapacity(bytes.count + width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let c = colour(x, y)
                bytes += [c.red, c.green, c.blue]
            }
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path(name)))
        return path(name)
    }

    /// A photo-like image (smooth gradients): resampling differences stay small on it.
    /// Red grows left to right, green top to bottom, blue along the diagonal up to 127.
    /// Scaled once per run for each size and format (`SharedFixture`); the test gets a copy.
    @discardableResult
    func gradient(_ name: String, width: Int, height: Int) throws -> String {
        // Drawn at 256×256 and scaled by width/256 and height/256, which are exact in binary,
        // so libvips lands on exactly width × height.
        let small = path(name + ".ppm")
        if !FileManager.default.fileExists(atPath: small) {
            try ppm(name + ".ppm", width: 256, height: 256) { x, y in
                RGB(red: UInt8(x), green: UInt8(y), blue: UInt8((x + y) / 4))
            }
        }
        // The format (and any save options) as the name's extension says.
        let format = (name as NSString).pathExtension
        return try SharedFixture.copy("gradient-\(width)x\(height).\(format)", to: path(name)) { made in
            try vips("resize", small, made, "\(Double(width) / 256)", "--vscale", "\(Double(height) / 256)")
        }
    }

    /// A detailed picture, its entropy code no run of zeros: `gradient` (as a JPEG) with
    /// Gaussian noise of spread `sigma` added, cast back to 8 bits. A VIPS file shared by the
    /// test run, for reading only (its `jpeg`s are the tests' own): the noise is drawn once a
    /// run, so every file saved from it has the same pixels before encoding.
    func noisyGradient(width: Int, height: Int, sigma: Int) throws -> String {
        try SharedFixture.path("gradient-\(width)x\(height)-noise-sigma\(sigma).v") { made in
            let drawn = try gradient("noisy-drawn-\(width)x\(height).jpg", width: width, height: height)
            let noise = path("noise-\(width)x\(height).v"), sum = path("sum-\(width)x\(height).v")
            try vips("gaussnoise", noise, "\(width)", "\(height)", "--sigma", "\(sigma)")
            try vips("add", drawn, noise, sum)
            try vips("cast", sum, made, "uchar")
            for scratch in [drawn, drawn + ".ppm", noise, sum] { try? FileManager.default.removeItem(atPath: scratch) }
        }
    }

    /// `source`, a VIPS file shared by the run, saved by `vips jpegsave` with `options`: made
    /// once a run, the test's own copy at `path(name)`.
    func jpeg(_ name: String, from source: String, _ options: [String]) throws -> String {
        let base = ((source as NSString).lastPathComponent as NSString).deletingPathExtension
        let saved = base + "-jpegsave" + options.map { "-" + $0.replacingOccurrences(of: "--", with: "") }.joined() + ".jpg"
        return try SharedFixture.copy(saved, to: path(name)) { made in
            try vips(["jpegsave", source, made] + options)
        }
    }

    /// Four flat quadrants: red top left, green top right, blue bottom left, yellow bottom right.
    /// Each of the eight EXIF orientations turns it into a different picture.
    @discardableResult
    func quadrants(_ name: String, width: Int, height: Int) throws -> String {
        try ppm(name, width: width, height: height) { x, y in
            Self.quadrantColour(left: x < width / 2, top: y < height / 2)
        }
    }

    static func quadrantColour(left: Bool, top: Bool) -> RGB {
        switch (left, top) {
        case (true, true): RGB(red: 255, green: 0, blue: 0)
        case (false, true): RGB(red: 0, green: 255, blue: 0)
        case (true, false): RGB(red: 0, green: 0, blue: 255)
        case (false, false): RGB(red: 255, green: 255, blue: 0)
        }
    }

    /// Inserts an EXIF block (orientation, and a GPS position when asked) right after a JPEG's SOI.
    func addExif(to jpegPath: String, orientation: Int, gps: Bool = false) throws {
        var jpeg = [UInt8](try Data(contentsOf: URL(fileURLWithPath: jpegPath)))
        XCTAssertEqual(Array(jpeg.prefix(2)), [0xFF, 0xD8], "not a JPEG")
        let tiff = Self.exifTIFF(orientation: orientation, gps: gps)
        let payload = Array("Exif".utf8) + [0, 0] + tiff
        let length = payload.count + 2
        jpeg.insert(contentsOf: [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload, at: 2)
        try Data(jpeg).write(to: URL(fileURLWithPath: jpegPath))
    }

    /// A little-endian TIFF structure: IFD0 with Orientation (and a GPS IFD pointer), then the GPS IFD.
    private static func exifTIFF(orientation: Int, gps: Bool) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        func u32(_ v: Int) -> [UInt8] { u16(v & 0xFFFF) + u16(v >> 16) }
        func entry(_ tag: Int, _ type: Int, _ count: Int, _ value: [UInt8]) -> [UInt8] {
            u16(tag) + u16(type) + u32(count) + value + [UInt8](repeating: 0, count: 4 - value.count)
        }
        let entries = gps ? 2 : 1
        let ifd0Size = 2 + 12 * entries + 4
        let gpsOffset = 8 + ifd0Size
        var out: [UInt8] = Array("II".utf8) + u16(42) + u32(8)
        out += u16(entries)
        out += entry(0x0112, 3, 1, u16(orientation))
        if gps { out += entry(0x8825, 4, 1, u32(gpsOffset)) }
        out += u32(0)
        if gps {
            let rationalsOffset = gpsOffset + 2 + 12 * 2 + 4
            out += u16(2)
            out += entry(0x0001, 2, 2, Array("N".utf8) + [0])  // GPSLatitudeRef
            out += entry(0x0002, 5, 3, u32(rationalsOffset))  // GPSLatitude
            out += u32(0)
            out += u32(48) + u32(1) + u32(12) + u32(1) + u32(30) + u32(1)  // 48° 12′ 30″
        }
        return out
    }

    /// Decodes JPEG bytes through libvips.
    func decode(_ bytes: [UInt8], name: String = "decoded-\(UInt32.random(in: 0...UInt32.max)).jpg") throws -> VipsImage {
        try Data(bytes).write(to: URL(fileURLWithPath: path(name)))
        return try VipsImage.open(path(name), access: .random)
    }
}

struct FixtureError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

/// Asserts a pixel is within `tolerance` of a colour on every band.
func assertPixel(_ image: VipsImage, _ x: Int, _ y: Int, is expected: RGB, tolerance: Double = 40,
                 _ message: String = "", file: StaticString = #filePath, line: UInt = #line) throws {
    let p = try image.pixel(x: x, y: y)
    XCTAssertEqual(p.count, 3, "bands at (\(x), \(y)) \(message)", file: file, line: line)
    let want = [Double(expected.red), Double(expected.green), Double(expected.blue)]
    for (got, wanted) in zip(p, want) where abs(got - wanted) > tolerance {
        XCTFail("pixel (\(x), \(y)) is \(p), expected ≈ \(want) \(message)", file: file, line: line)
        return
    }
}

/// Resident and peak resident memory of this process in kB (from /proc/self/status).
func memoryKilobytes() -> (resident: Int, peak: Int) {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    func field(_ name: String) -> Int {
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(name + ":") }) else { return 0 }
        return Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
    }
    return (field("VmRSS"), field("VmHWM"))
}

/// Starts a new peak-RSS window (Linux: writing 5 to clear_refs resets VmHWM to the current RSS).
func resetPeakMemory() {
    try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
}
