// The kept tiles' C handle, made and freed here: this file, JPEGScanIndex.swift and Vips.swift are the
// only Swift files that see the JPEG tile pipeline's C.
internal import CJPEGTiles

/// Decoded pyramid tiles kept between IIIF regions, up to a budget in bytes, the least recently
/// used going first: regions of the same photo at the same level share most of their tiles, and
/// decoding them is most of a region's work. A tile is known by its path and by the identity of
/// the file the decoder opened (device, inode, size, change time), so a tile written anew is
/// decoded anew. Its owner passes it into every region it renders; the C set lives as long as
/// this object, and a render holds the object for the whole call.
public final class RegionTileCache: Sendable {
    /// The C set: it locks itself, so any thread may use it.
    nonisolated(unsafe) let handle: OpaquePointer

    /// A cache keeping up to `bytes` (0: none kept, every tile is decoded for each region).
    public init(bytes: Int) {
        handle = jpeg_decoded_tiles_new(max(0, bytes))
    }

    deinit { jpeg_decoded_tiles_free(handle) }

    /// A new budget; tiles past it go at once, the oldest first.
    public func keep(bytes: Int) { jpeg_decoded_tiles_configure(handle, max(0, bytes)) }

    /// Lets go of every kept tile (the budget stays).
    public func flush() { jpeg_decoded_tiles_flush(handle) }

    /// Bytes of decoded tiles kept now.
    public var keptBytes: Int { Int(jpeg_decoded_tiles_bytes(handle)) }
}
