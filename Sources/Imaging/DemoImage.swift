// Synthetic colourful photos for the demo library and for tests, drawn by libvips in-process
// through Vips.swift's operations by name; libvips is started by the same initialiser as for
// photos, so its untrusted loaders are blocked here too.
import Foundation

/// Draws synthetic photos: smooth colour waves in CIELAB with a fine grain, so that every zoom
/// level, native pixels included, has something to look at.
public enum DemoImage {
    /// Writes a `width` × `height` JPEG (or PNG, by the extension) to `path`. `seed` varies the
    /// colours and wave lengths. A 100-megapixel photo takes a few seconds.
    public static func write(to path: String, width: Int, height: Int, seed: Int = 1, quality: Int = 90) throws {
        guard width > 0, height > 0 else { throw ImagingError.vips("a demo photo needs a positive size") }
        try Vips.ensureInitialized()
        let s = Double(seed)
        // Two waves across the photo: about 1.5–3 periods along each side.
        let periodX = Double(width) / (1.5 + (s * 0.37).truncatingRemainder(dividingBy: 1.5))
        let periodY = Double(height) / (1.2 + (s * 0.61).truncatingRemainder(dividingBy: 1.6))

        // The colour waves are smooth, so they are drawn at a quarter of the size and scaled up;
        // only the grain is drawn at full size (from one small tile, repeated), which keeps a
        // 100-megapixel photo to a few seconds, most of it JPEG encoding.
        let factor = max(1, min(4, min(width, height) / 256))
        let smallWidth = (width + factor - 1) / factor, smallHeight = (height + factor - 1) / factor
        let xy = try run("xyz", ["width": "\(smallWidth)", "height": "\(smallHeight)"])
        // Degrees for vips' sin: band 0 from x, band 1 from y, each with its own phase.
        let angles = try run("linear", ["a": "\(360 * Double(factor) / periodX) \(360 * Double(factor) / periodY)",
                                        "b": "\(s * 47) \(s * 83)"], images: ["in": xy])
        let waves = try run("math", ["math": "sin"], images: ["in": angles])
        let matrix = try VipsImage.matrix([
            12, 8,                          // L from both waves
            60 * cos(s), 60 * sin(s),       // a
            -60 * sin(s * 1.3), 60 * cos(s * 1.7), // b
        ], columns: 2, rows: 3)
        let mixed = try run("recomb", [:], images: ["in": waves, "m": matrix])
        let lab = try run("linear", ["a": "1 1 1", "b": "62 \(10 * cos(s * 2.1)) \(10 * sin(s * 2.9))"], images: ["in": mixed])
        let small = try run("colourspace", ["space": "srgb", "source-space": "lab"], images: ["in": lab])
        let scaled = factor == 1 ? small : try run("resize", ["scale": "\(factor)", "kernel": "linear"], images: ["in": small])
        let colour = try run("extract_area", ["left": "0", "top": "0", "width": "\(width)", "height": "\(height)"],
                             images: ["input": scaled])
        // A fine grain, ±6 levels from a 13 × 11 tile: detail only native resolution shows.
        var state = UInt64(truncatingIfNeeded: seed) &* 0x9E37_79B9_7F4A_7C15 | 1
        let cell = (0..<(13 * 11)).map { _ -> Double in
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return Double(Int(state % 13) - 6)
        }
        let tile = try run("cast", ["format": "char"], images: ["in": try VipsImage.matrix(cell, columns: 13, rows: 11)])
        let tiled = try run("replicate", ["across": "\(width / 13 + 1)", "down": "\(height / 11 + 1)"], images: ["in": tile])
        let grain = try run("extract_area", ["left": "0", "top": "0", "width": "\(width)", "height": "\(height)"],
                            images: ["input": tiled])
        let textured = try run("add", [:], images: ["left": colour, "right": grain])
        let srgb = try run("cast", ["format": "uchar"], images: ["in": textured])
        let saver = path.lowercased().hasSuffix(".png") ? "pngsave" : "jpegsave"
        var options = ["filename": path]
        if saver == "jpegsave" { options["Q"] = "\(quality)" }
        try VipsImage.operation(saver, options, images: ["in": srgb], output: false)
    }

    /// One operation by name, its "out" image.
    private static func run(_ name: String, _ arguments: [String: String], images: [String: VipsImage] = [:]) throws -> VipsImage {
        guard let image = try VipsImage.operation(name, arguments, images: images) else {
            throw ImagingError.vips("\(name) gave no image")
        }
        return image
    }
}
