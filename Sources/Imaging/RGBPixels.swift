/// A rectangle of 8-bit RGB pixels in memory, rows `stride` bytes apart: a strip of a level on
/// its way to tiles, or a whole small level.
// @unchecked Sendable: rows are written by one thread, then only read (by tile encoders) until
// the writer has waited for those readers (`TileCrew.wait`) before writing them again.
final class RGBPixels: @unchecked Sendable {
    let width: Int
    /// Rows the buffer has room for.
    let capacity: Int
    let stride: Int
    let base: UnsafeMutablePointer<UInt8>

    init(width: Int, rows: Int) {
        self.width = width
        capacity = rows
        stride = width * 3
        base = .allocate(capacity: max(1, stride * rows))
    }

    deinit { base.deallocate() }

    /// Where row `y` starts.
    func row(_ y: Int) -> UnsafeMutablePointer<UInt8> { base + y * stride }

    /// The JPEG of the `width` × `height` pixels at (`x`, `y`).
    func jpeg(x: Int, y: Int, width: Int, height: Int, quality: Int) throws -> [UInt8] {
        try RGBCodec.jpeg(UnsafePointer(row(y) + 3 * x), stride: stride, width: width, height: height, quality: quality)
    }

    /// Halves `rows` rows from row `y` into `target` from its row `targetRow`; returns the rows written.
    @discardableResult
    func halve(rows: Int, from y: Int = 0, into target: RGBPixels, at targetRow: Int) -> Int {
        RGBCodec.halve(UnsafePointer(row(y)), stride: stride, width: width, height: rows,
                       into: target.row(targetRow), targetStride: target.stride)
        return (rows + 1) / 2
    }

    /// A libvips image of the first `rows` rows (a copy).
    func image(rows: Int) throws -> VipsImage {
        precondition(stride == width * 3)
        return try VipsImage.rgb(UnsafePointer(base), width: width, height: rows)
    }
}
