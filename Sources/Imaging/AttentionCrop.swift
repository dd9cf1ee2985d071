import Foundation

/// Where a `width` × `height` crop should sit in a picture so that it holds what draws the eye:
/// edges in the luminance, skin tones, and saturated colour (the last two only where the picture
/// is not dark), blurred to the scale of the crop and taken at their strongest point. This is the
/// measure of libvips' `attention` (after smartcrop.js), with its constants.
///
/// It reads the averages of a grid of about 32 × 32 cells over the picture (`VipsImage` takes
/// them in place from a thumbnail in memory), a thousand pixels, in plain arithmetic, where
/// libvips' smartcrop builds some twenty operations for the same measure (colour-space
/// conversions, a convolution, a blur, a search for the maximum, each with its buffers and
/// threads). Measured on the first start of a 1,000-photo library (`INGEST_ONLY=1 SIZES=1000
/// bench/library.sh`, three alternating rounds against the same build with smartcrop): CPU per
/// photo of the thumbnail stage 0.47 / 0.53 / 0.65 of smartcrop's (min / median / max); and at
/// 100,000 photos (`SIZES="1000 100000"`) ×0.93 of the CPU per photo at 1,000, where smartcrop's
/// grew to ×1.20.
enum AttentionCrop {
    /// The crop's top-left corner in the picture. `rgb` is the shrunk copy, 8-bit sRGB, three
    /// bytes per pixel, `columns` × `rows`; the picture is `pictureWidth` × `pictureHeight`.
    static func origin(rgb: [UInt8], columns: Int, rows: Int, pictureWidth: Int, pictureHeight: Int,
                       width: Int, height: Int) -> (x: Int, y: Int) {
        precondition(rgb.count == columns * rows * 3 && columns > 0 && rows > 0)
        let count = columns * rows
        var luminance = [Double](repeating: 0, count: count)
        var score = [Double](repeating: 0, count: count)
        for i in 0..<count {
            let (x, y, z) = xyz(red: rgb[3 * i], green: rgb[3 * i + 1], blue: rgb[3 * i + 2])
            luminance[i] = y
            // Dark areas count neither as skin nor as colour.
            guard y > 5 else { continue }
            score[i] = skin(x, y, z) + redGreen(x, y)
        }
        // Edges: the luminance's Laplacian, edge pixels repeated past the border, times 5.
        for row in 0..<rows {
            for column in 0..<columns {
                let here = luminance[row * columns + column]
                let left = luminance[row * columns + max(column - 1, 0)]
                let right = luminance[row * columns + min(column + 1, columns - 1)]
                let above = luminance[max(row - 1, 0) * columns + column]
                let below = luminance[min(row + 1, rows - 1) * columns + column]
                score[row * columns + column] += abs(5 * (4 * here - left - right - above - below))
            }
        }
        let horizontal = Double(columns) / Double(pictureWidth), vertical = Double(rows) / Double(pictureHeight)
        let sigma = max(((Double(width) * horizontal) * (Double(width) * horizontal)
                         + (Double(height) * vertical) * (Double(height) * vertical)).squareRoot() / 10, 1)
        let blurred = blur(score, columns: columns, rows: rows, sigma: sigma)
        // The strongest point; of equals, the one nearest the middle, so a picture with nothing in
        // it is cropped about its centre.
        var best = 0
        func distance(_ i: Int) -> Double {
            let dx = Double(i % columns) - Double(columns - 1) / 2, dy = Double(i / columns) - Double(rows - 1) / 2
            return dx * dx + dy * dy
        }
        for i in 1..<count where blurred[i] > blurred[best] || (blurred[i] == blurred[best] && distance(i) < distance(best)) {
            best = i
        }
        // Centred on the middle of that cell of the shrunk copy, kept inside the picture.
        let centreX = (Double(best % columns) + 0.5) / horizontal, centreY = (Double(best / columns) + 0.5) / vertical
        let x = Int((centreX - Double(width) / 2).rounded()), y = Int((centreY - Double(height) / 2).rounded())
        return (min(max(x, 0), max(pictureWidth - width, 0)), min(max(y, 0), max(pictureHeight - height, 0)))
    }

    /// sRGB's decoding to linear light, per 8-bit value.
    private static let linear: [Double] = (0...255).map { value in
        let v = Double(value) / 255
        return v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
    }

    /// CIE XYZ with D65 white, Y from 0 to 100.
    private static func xyz(red: UInt8, green: UInt8, blue: UInt8) -> (Double, Double, Double) {
        let r = linear[Int(red)], g = linear[Int(green)], b = linear[Int(blue)]
        let x: Double = 41.24 * r + 35.76 * g + 18.05 * b
        let y: Double = 21.26 * r + 71.52 * g + 7.22 * b
        let z: Double = 1.93 * r + 11.92 * g + 95.05 * b
        return (x, y, z)
    }

    /// 100 at smartcrop.js's skin colour (its direction in XYZ), falling with the distance from it.
    private static func skin(_ x: Double, _ y: Double, _ z: Double) -> Double {
        let length = (x * x + y * y + z * z).squareRoot()
        guard length > 0 else { return 0 }
        let dx: Double = x / length - 0.78, dy: Double = y / length - 0.57, dz: Double = z / length - 0.44
        return 100 - 100 * (dx * dx + dy * dy + dz * dz).squareRoot()
    }

    /// CIELAB's a* (green − to red +), D65 white: how saturated, the way libvips' measure counts it.
    private static func redGreen(_ x: Double, _ y: Double) -> Double {
        func f(_ t: Double) -> Double { t > 216.0 / 24389.0 ? cbrt(t) : (24389.0 / 27.0 * t + 16) / 116 }
        return 500 * (f(x / 95.047) - f(y / 100))
    }

    /// A Gaussian blur of standard deviation `sigma`, as libvips' gaussblur makes its mask (values
    /// down to a fifth of the peak), edge pixels repeated past the border.
    private static func blur(_ values: [Double], columns: Int, rows: Int, sigma: Double) -> [Double] {
        let radius = Int((sigma * (2 * log(5.0)).squareRoot()).rounded(.down))
        let weights = (-radius...radius).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
        let total = weights.reduce(0, +)
        var across = [Double](repeating: 0, count: values.count)
        for row in 0..<rows {
            for column in 0..<columns {
                var sum = 0.0
                for k in -radius...radius {
                    sum += weights[k + radius] * values[row * columns + min(max(column + k, 0), columns - 1)]
                }
                across[row * columns + column] = sum / total
            }
        }
        var result = [Double](repeating: 0, count: values.count)
        for row in 0..<rows {
            for column in 0..<columns {
                var sum = 0.0
                for k in -radius...radius {
                    sum += weights[k + radius] * across[min(max(row + k, 0), rows - 1) * columns + column]
                }
                result[row * columns + column] = sum / total
            }
        }
        return result
    }
}
