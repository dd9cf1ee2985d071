// The scan index's C handle, made and freed here: this file, RegionTileCache.swift and Vips.swift
// are the only Swift files that see the JPEG tile pipeline's C.
internal import CJPEGTiles

/// Where each MCU row of a baseline JPEG without restart markers starts in its entropy code, from
/// one pass that decodes its Huffman codes alone: what lets a band of such a file be decoded
/// without every row above it, as restart markers let one of another file
/// (`Sources/CJPEGTiles/jpegscanindex.c`). It belongs to one version of one file: its owner
/// keeps it with what else it knows of that version and lets it go with it.
public final class JPEGScanIndex: Sendable {
    /// The C index: read-only once built, so any thread may use it.
    nonisolated(unsafe) let handle: OpaquePointer

    /// MCU rows indexed.
    public var rows: Int { Int(cjpeg_scan_index_rows(handle)) }

    /// Indexes the JPEG open on `descriptor` (which stays the caller's). Throws `.corrupt` when
    /// its coded data is cut short or holds bits that are no code, or when it is not a file
    /// `indexes` takes; the stop's reason when `stop` ends it.
    public init(descriptor: Int32, stop: RenderStop? = nil) throws {
        guard let built = cjpeg_scan_index_build(descriptor, stop?.pointer) else {
            let error = VipsImage.lastError(kind: .corrupt)
            throw stop?.reason ?? error
        }
        handle = built
    }

    deinit { cjpeg_scan_index_free(handle) }

    /// Whether the JPEG open on `descriptor` is one the index takes, from its headers alone: one
    /// 8-bit baseline Huffman scan of every component without restart markers.
    public static func indexes(descriptor: Int32) -> Bool { cjpeg_scan_indexable(descriptor) == 1 }
}
