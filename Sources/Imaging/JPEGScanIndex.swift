// The scan index's C handle, made and freed here: this file, RegionTileCache.swift and Vips.swift
// are the only Swift files that see the JPEG tile pipeline's C.
internal import CJPEGTiles

/// Where each MCU row of a baseline JPEG without restart markers starts in its entropy code, from
/// one pass that decodes its Huffman codes alone: what lets a band of such a file be decoded
/// without every row above it, as restart markers let one of another file
/// (`Sources/CJPEGTiles/jpegscanindex.c`). It belongs to one version of one file: its owner
/// keeps it with what else it knows of that version and lets it go with it.
///
/// The pass records the rows one after another (`advance`), and a band is cut as soon as the rows
/// it needs are recorded (`covers`), while the pass goes on below them.
public final class JPEGScanIndex: Sendable {
    /// The C index. Its row starts are each written once, by the one thread that advances the
    /// pass, before the count of recorded starts is published (release order); a cut reads the
    /// count (acquire order) and only the starts below it. Everything else is read-only once made,
    /// so any thread may cut bands while the pass goes on.
    nonisolated(unsafe) let handle: OpaquePointer

    /// MCU rows of the image (the whole index records one start more: where the data ends).
    public var rows: Int { Int(cjpeg_scan_index_rows(handle)) }

    /// Row starts recorded so far, up to `rows + 1` (whole).
    var recorded: Int { Int(cjpeg_scan_index_recorded(handle)) }

    /// Whether the index is whole.
    var isWhole: Bool { recorded == rows + 1 }

    /// Whether a band holding the image's rows `imageRows` can be cut with the rows recorded so far.
    func covers(_ imageRows: Range<Int>) -> Bool { recorded >= needed(for: imageRows) }

    /// The row starts recorded before a band holding the image's rows `imageRows` can be cut.
    func needed(for imageRows: Range<Int>) -> Int {
        Int(cjpeg_scan_index_needs(handle, Int32(clamping: imageRows.lowerBound), Int32(clamping: imageRows.upperBound)))
    }

    /// Indexes the whole JPEG open on `descriptor` (which stays the caller's). Throws `.corrupt`
    /// when its coded data is cut short or holds bits that are no code, or when it is not a file
    /// `indexes` takes; the stop's reason when `stop` ends it.
    public init(descriptor: Int32, stop: RenderStop? = nil) throws {
        guard let built = cjpeg_scan_index_build(descriptor, stop?.pointer) else {
            let error = VipsImage.lastError(kind: .corrupt)
            throw stop?.reason ?? error
        }
        handle = built
    }

    /// The index of the JPEG open on `descriptor` with its headers read and no row recorded yet,
    /// for `advance` to make. Throws `.corrupt` when it is not a file `indexes` takes.
    init(headersOf descriptor: Int32) throws {
        guard let made = cjpeg_scan_index_new(descriptor) else { throw VipsImage.lastError(kind: .corrupt) }
        handle = made
    }

    /// Records one more row start, reading the row above it through from `descriptor` (the file
    /// the index was made from); true once the index is whole. Throws as `init(descriptor:stop:)`
    /// does, after which nothing more is recorded. Only one thread advances an index.
    func advance(descriptor: Int32, stop: RenderStop? = nil) throws -> Bool {
        switch cjpeg_scan_index_advance(handle, descriptor, stop?.pointer) {
        case 0: return false
        case 1: return true
        default:
            let error = VipsImage.lastError(kind: .corrupt)
            throw stop?.reason ?? error
        }
    }

    deinit { cjpeg_scan_index_free(handle) }

    /// Whether the JPEG open on `descriptor` is one the index takes, from its headers alone: one
    /// 8-bit baseline Huffman scan of every component without restart markers.
    public static func indexes(descriptor: Int32) -> Bool { cjpeg_scan_indexable(descriptor) == 1 }
}
