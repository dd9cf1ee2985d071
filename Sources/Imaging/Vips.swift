// The only Swift file that sees libvips: every C call, every reference count and every
// conversion of a libvips error into an ImagingError happens here.
internal import CVips
internal import CVipsShims
internal import CJPEGTiles
import Foundation
import POSIX
import Synchronization

/// The libvips runtime: started once per process, with bounded caches and threads.
public enum Vips {
    private static let state = Mutex<Bool>(false)

    /// Once per process (idempotent, thread-safe): vips_init, cache limits, thread count.
    ///
    /// - Parameters:
    ///   - cacheMegabytes: memory libvips' operation cache may keep (decoded regions, headers).
    ///   - concurrency: worker threads per pipeline; 0 keeps libvips' default (one per core).
    ///   - regionTileMegabytes: decoded pyramid tiles kept for regions (0: none).
    public static func initialize(cacheMegabytes: Int = 64, concurrency: Int = 0, regionTileMegabytes: Int = 32) throws {
        try state.withLock { started in
            if !started {
                guard cvips_init("photoscroll") == 0 else { throw VipsImage.lastError(kind: .vips) }
                started = true
            }
            // The cache holds recent operations (headers, small results): at most this much
            // memory, 100 operations and 20 open files, whatever the traffic.
            cvips_configure(max(0, cacheMegabytes) << 20, 100, 20, Int32(max(0, concurrency)))
            regionTiles.keep(bytes: max(0, regionTileMegabytes) << 20)
        }
    }

    /// Whether `initialize` has started libvips (with its untrusted loaders blocked).
    static var isInitialized: Bool { state.withLock { $0 } }

    /// Starts libvips with the defaults when nobody called `initialize` first.
    static func ensureInitialized() throws {
        if isInitialized { return }
        try initialize()
    }

    /// Bytes libvips currently tracks (pixel buffers it allocated itself).
    static var trackedMemory: Int { Int(vips_tracked_get_mem()) }

    /// Files libvips currently holds open.
    static var trackedFiles: Int { Int(vips_tracked_get_files()) }

    /// The decoded pyramid tiles regions keep, sized by `initialize` (`regionTileMegabytes`) and
    /// let go by `releaseMemory`; renders are handed it, none reaches it on its own.
    public static let regionTiles = RegionTileCache(bytes: 32 << 20)

    /// Drops every cached operation, so that only images still referenced stay alive.
    static func dropCache() { cvips_cache_flush() }

    /// Lets go of what a burst of renders leaves behind: libvips' operation cache (and with it
    /// the decoded pixels it holds; it fills again as work comes), the decoded tiles kept for
    /// regions, then the free pages of every C heap arena (`malloc_trim`: glibc keeps what
    /// threads freed in arenas of their own, so resident memory stays at its peak otherwise).
    /// Takes a few milliseconds on a large heap.
    public static func releaseMemory() {
        if isInitialized { cvips_cache_flush() }
        regionTiles.flush()
        cvips_trim_heap()
    }

    /// Lowers the calling thread's CPU priority (nice 10, for good: an unprivileged thread cannot
    /// raise it again), for threads that only render: they yield to the threads that answer
    /// requests, as libvips' own workers do once they have computed a render.
    public static func lowerThreadPriority() { cvips_lower_thread_priority() }

    /// Caps the C heap's arenas (glibc's `M_ARENA_MAX`, by default eight per core): fewer
    /// half-empty arenas left behind by threads that allocated in bursts. Call once at start,
    /// before the threads are made.
    public static func limitHeapArenas(to count: Int) {
        cvips_limit_heap_arenas(Int32(max(1, count)))
    }

    /// Keeps blocks up to 32 MiB in the heap's arenas, and up to 64 MiB free at an arena's top,
    /// from the start: what glibc's own thresholds rise to once such blocks have been freed,
    /// except that a block of exactly the last size freed still went to the kernel and came back
    /// as fresh pages. A render's buffers (a region's decoded tiles, its shrink, its JPEG) are
    /// then the same memory from one render to the next, not a few thousand page faults each.
    /// `releaseMemory` gives the free pages back after a burst. Call once at start.
    public static func keepLargeBlocksInTheHeap() {
        cvips_keep_large_blocks(32 << 20, 64 << 20)
    }
}

/// A way to stop one render from another thread (its client has gone), or by itself once it has
/// run longer than allowed. The computation notices at its next strip or tile and fails with
/// `ImagingError.cancelled` or `.tookTooLong`; what it had allocated is released as it unwinds.
// @unchecked Sendable: the C stop is changed only through atomics (and freed by its last reference).
public final class RenderStop: @unchecked Sendable {
    let pointer: OpaquePointer
    /// The time allowed, in seconds; nil for no limit.
    public let seconds: Double?

    /// A stop whose deadline is `seconds` from now (nil: none).
    public init(seconds: Double? = nil) {
        self.seconds = seconds
        pointer = cvips_stop_new(seconds ?? 0)
    }

    /// A stop that cancels itself once `reads` reads of the photo's file were made under it:
    /// where a decoder's intake is stopped, counted rather than timed.
    convenience init(cancellingAfterReads reads: Int32) {
        self.init()
        cvips_stop_cancel_after_reads(pointer, reads)
    }

    /// A stop of `seconds` whose time is up once `reads` reads of the photo's file were made
    /// under it, whenever that comes: a deadline at a known point of a render.
    convenience init(seconds: Double, expiringAfterReads reads: Int32) {
        self.init(seconds: seconds)
        cvips_stop_expire_after_reads(pointer, reads)
    }

    deinit { cvips_stop_unref(pointer) }

    /// Reads of the photo's file made under this stop; each asked the stop first.
    var reads: Int { Int(cvips_stop_reads(pointer)) }

    /// Asks the render to end as soon as it can; safe from any thread, any number of times.
    public func cancel() { cvips_stop_cancel(pointer) }

    /// Why the render must end, or nil while it may go on.
    public var reason: ImagingError? {
        switch cvips_stop_state(pointer) {
        case 1: .cancelled
        case 2: .tookTooLong(seconds: seconds ?? 0)
        default: nil
        }
    }

    /// Runs `body`; whatever it throws once this stop has fired becomes the stop's own reason,
    /// so a computation cut short never passes for a damaged photo.
    public func guarding<T>(_ body: () throws -> T) throws -> T {
        if let reason { throw reason }
        do { return try body() } catch {
            if let reason { throw reason }
            throw error
        }
    }
}

/// One reference to a libvips image; released when the Swift object goes away.
final class VipsImage {
    private let pointer: UnsafeMutablePointer<CVips.VipsImage>

    private init(owning pointer: UnsafeMutablePointer<CVips.VipsImage>) { self.pointer = pointer }

    deinit { g_object_unref(gpointer(pointer)) }

    /// A photo opened from `source`: only its header has been read.
    struct Opened {
        let image: VipsImage
        let loader: LoaderKind
        /// The file's status when it was opened (size, modification time).
        let status: FileStatus
    }

    /// Opens a file through a descriptor of its own from `source`; only the header is read until
    /// pixels are asked for. Refuses what is not a regular file, an empty file, and a file no
    /// trusted loader recognises (by its content, not its name) as `.notAnImage`.
    /// `stop` is asked before every read of the file, so that a decode that takes the whole file
    /// before its first row (a progressive JPEG) ends with it too.
    static func open(_ source: PhotoSource, access: VipsAccessPattern, shrink: Int = 1, stop: RenderStop? = nil) throws -> Opened {
        let file = try source.open()
        defer { file.close() }  // libvips keeps a duplicate for as long as the image lives
        let status: FileStatus
        do { status = try file.status() } catch { throw ImagingError.io("\(source.name): \(error.reason)") }
        guard status.isRegularFile else { throw ImagingError.notAnImage("not a regular file") }
        guard status.size > 0 else { throw ImagingError.notAnImage("the file is empty") }
        var out: UnsafeMutablePointer<CVips.VipsImage>?
        var loader: UnsafePointer<CChar>?
        let mode = access == .random ? VIPS_ACCESS_RANDOM : VIPS_ACCESS_SEQUENTIAL
        let result = cvips_load_descriptor(file.rawValue, mode, 1, Int32(shrink), stop?.pointer, &out, &loader)
        guard let loader else { throw ImagingError.notAnImage("no image format recognised") }
        guard result == 0, let out else { throw lastError(kind: .corrupt) }
        return Opened(image: VipsImage(owning: out), loader: LoaderKind(className: String(cString: loader)), status: status)
    }

    /// One level of a tiled TIFF (`TIFFLevel.Place`) from `source`, for random access: a region
    /// of it decodes only the tiles it covers.
    static func openTIFFLevel(_ source: PhotoSource, page: Int, subDirectory: Int, stop: RenderStop? = nil) throws -> VipsImage {
        let file = try source.open()
        defer { file.close() }  // libvips keeps a duplicate for as long as the image lives
        var out: UnsafeMutablePointer<CVips.VipsImage>?
        guard cvips_load_tiff_level(file.rawValue, Int32(page), Int32(subDirectory), stop?.pointer, &out) == 0, let out else {
            throw lastError(kind: .corrupt)
        }
        return VipsImage(owning: out)
    }

    /// Opens a file of our own (a tile of a built pyramid) by its path.
    static func open(_ path: String, access: VipsAccessPattern) throws -> VipsImage {
        try open(.file(path), access: access).image
    }

    /// Which loader reads the file at `path` (by its content), or nil when none does.
    static func loader(for path: String) -> LoaderKind? {
        try? open(.file(path), access: .sequential).loader
    }

    /// Tiles laid out in a grid `columns` wide, row by row, as one image.
    static func joined(_ tiles: [VipsImage], columns: Int) throws -> VipsImage {
        var pointers: [UnsafeMutablePointer<CVips.VipsImage>?] = tiles.map { $0.pointer }
        var out: UnsafeMutablePointer<CVips.VipsImage>?
        let result = withExtendedLifetime(tiles) {
            cvips_arrayjoin(&pointers, Int32(tiles.count), Int32(columns), &out)
        }
        guard result == 0, let out else { throw lastError(kind: .vips) }
        return VipsImage(owning: out)
    }

    /// `rect` of a grid of JPEG tiles laid row by row, `columns` wide, `tileSize` apart (edge
    /// tiles may be smaller), decoded into memory as 8-bit sRGB.
    /// `kept`: the tiles kept between regions (nil: each decoded, only the blocks wanted).
    static func decodedJPEGTiles(_ paths: [String], columns: Int, tileSize: Int, rect: PixelRect,
                                 kept: RegionTileCache? = Vips.regionTiles, stop: RenderStop? = nil) throws -> VipsImage {
        try withRegionRequest(paths, columns: columns, tileSize: tileSize, rect: rect, kept: kept, stop: stop) { request in
            try made(failing: .corrupt) { cvips_decode_jpeg_tiles(request, &$0) }
        }
    }

    /// The same rectangle shrunk to `width` × `height` (neither above its own) as `shrunkLinearly`
    /// does, straight from the decoded tiles, which are let go at once; the pixels are in memory.
    static func decodedJPEGTiles(_ paths: [String], columns: Int, tileSize: Int, rect: PixelRect, shrunkToWidth width: Int,
                                 height: Int, kept: RegionTileCache? = Vips.regionTiles, stop: RenderStop? = nil) throws -> VipsImage {
        try withRegionRequest(paths, columns: columns, tileSize: tileSize, rect: rect, width: width, height: height,
                              kept: kept, stop: stop) { request in
            try made(failing: .corrupt) { cvips_decode_jpeg_tiles_shrunk(request, &$0) }
        }
    }

    /// The same rectangle shrunk to `width` × `height` and encoded as a metadata-free JPEG at
    /// `quality`, as libvips' jpegsave encodes: decoded, shrunk and encoded on two threads.
    static func regionJPEG(_ paths: [String], columns: Int, tileSize: Int, rect: PixelRect, width: Int, height: Int,
                           quality: Int, kept: RegionTileCache? = Vips.regionTiles, stop: RenderStop? = nil) throws -> [UInt8] {
        try withRegionRequest(paths, columns: columns, tileSize: tileSize, rect: rect, width: width, height: height,
                              quality: quality, kept: kept, stop: stop) { request in
            var buffer: UnsafeMutablePointer<UInt8>?
            var length: UInt = 0
            guard cvips_region_jpeg(request, &buffer, &length) == 0, let buffer else { throw lastError(kind: .corrupt) }
            defer { cjpeg_free(buffer) }
            return Array(UnsafeBufferPointer(start: buffer, count: Int(length)))
        }
    }

    /// The C side's request for `rect` of the grid of tiles at `paths`, valid for the call alone
    /// (which holds `kept`, so that its C set outlives the call).
    private static func withRegionRequest<T>(_ paths: [String], columns: Int, tileSize: Int, rect: PixelRect, width: Int = 0,
                                             height: Int = 0, quality: Int = 0, kept: RegionTileCache?, stop: RenderStop?,
                                             _ body: (UnsafePointer<jpeg_region_request>) throws -> T) rethrows -> T {
        try withCStrings(paths) { pointers in
            var request = jpeg_region_request(
                paths: pointers, count: Int32(paths.count), columns: Int32(columns), tile_size: Int32(tileSize),
                left: Int32(rect.x), top: Int32(rect.y), width: Int32(rect.width), height: Int32(rect.height),
                out_width: Int32(width), out_height: Int32(height), quality: Int32(quality), stop: stop?.pointer,
                kept: kept?.handle)
            return try withExtendedLifetime(kept) { try withUnsafePointer(to: &request) { try body($0) } }
        }
    }

    /// NUL-terminated copies of `strings` that stay put for the whole call.
    private static func withCStrings<T>(_ strings: [String], _ body: (UnsafeMutablePointer<UnsafePointer<CChar>?>) throws -> T) rethrows -> T {
        let copies = strings.map(Memory.cString)
        defer { copies.forEach { $0.deallocate() } }
        var pointers: [UnsafePointer<CChar>?] = copies.map { UnsafePointer($0) }
        return try pointers.withUnsafeMutableBufferPointer { try body($0.baseAddress!) }
    }

    /// The image a C call makes, or its error as `kind` (every derived image comes this way).
    private static func made(failing kind: ErrorKind, _ call: (inout UnsafeMutablePointer<CVips.VipsImage>?) -> Int32) throws -> VipsImage {
        var out: UnsafeMutablePointer<CVips.VipsImage>?
        guard call(&out) == 0, let out else { throw lastError(kind: kind) }
        return VipsImage(owning: out)
    }

    var width: Int { Int(vips_image_get_width(pointer)) }
    var height: Int { Int(vips_image_get_height(pointer)) }
    var bands: Int { Int(vips_image_get_bands(pointer)) }
    var hasAlpha: Bool { vips_image_hasalpha(pointer) != 0 }
    var hasICCProfile: Bool { cvips_has_icc(pointer) != 0 }
    /// EXIF orientation 1–8 (1 when the tag is absent).
    var orientation: Int { Int(vips_image_get_orientation(pointer)) }
    var isEightBit: Bool { vips_image_get_format(pointer) == VIPS_FORMAT_UCHAR }
    /// Bytes of one sample: 1 for 8-bit, 2 for 16-bit, 4 for float.
    var bytesPerSample: Int { Int(vips_format_sizeof(vips_image_get_format(pointer))) }
    var isCMYK: Bool { vips_image_get_interpretation(pointer) == VIPS_INTERPRETATION_CMYK }
    var isSRGB: Bool { vips_image_get_interpretation(pointer) == VIPS_INTERPRETATION_sRGB }

    /// The embedded ICC profile's bytes, if there is one.
    var iccProfile: [UInt8]? {
        var data: UnsafeRawPointer?
        var length = 0
        guard hasICCProfile, vips_image_get_blob(pointer, "icc-profile-data", &data, &length) == 0, let data else {
            vips_error_clear()
            return nil
        }
        return Array(UnsafeRawBufferPointer(start: data, count: length))
    }

    /// Whether a metadata field (e.g. "exif-data", "icc-profile-data") is attached.
    func hasField(_ name: String) -> Bool { vips_image_get_typeof(pointer, name) != 0 }

    /// The names of every metadata field attached ("exif-ifd0-Make", "xmp-data", …).
    var fieldNames: [String] {
        guard let names = cvips_field_names(pointer) else { return [] }
        defer { g_strfreev(names) }
        var out: [String] = []
        var i = 0
        while let name = names[i] {
            out.append(String(cString: name))
            i += 1
        }
        return out
    }

    /// The bytes of a blob field ("exif-data", "xmp-data", "iptc-data"), at most `limit` of them;
    /// nil when the field is absent, not a blob, or larger than `limit`.
    func blob(_ name: String, limit: Int) -> [UInt8]? {
        guard hasField(name) else { return nil }
        var data: UnsafeRawPointer?
        var length = 0
        guard vips_image_get_blob(pointer, name, &data, &length) == 0, let data else {
            vips_error_clear()
            return nil
        }
        guard length <= limit else { return nil }
        return Array(UnsafeRawBufferPointer(start: data, count: length))
    }

    /// An integer field ("interlaced"), or nil when absent or not an integer.
    func integer(_ name: String) -> Int? {
        guard hasField(name) else { return nil }
        var value: Int32 = 0
        guard vips_image_get_int(pointer, name, &value) == 0 else {
            vips_error_clear()
            return nil
        }
        return Int(value)
    }

    /// A string field ("heif-compression"), or nil when absent or not a string.
    func string(_ name: String) -> String? {
        guard hasField(name) else { return nil }
        var value: UnsafePointer<CChar>?
        guard vips_image_get_string(pointer, name, &value) == 0, let value else {
            vips_error_clear()
            return nil
        }
        return String(cString: value)
    }

    /// The byte length of a blob field, or nil when it is absent or not a blob.
    func blobLength(_ name: String) -> Int? {
        guard hasField(name) else { return nil }
        var data: UnsafeRawPointer?
        var length = 0
        guard vips_image_get_blob(pointer, name, &data, &length) == 0 else {
            vips_error_clear()
            return nil
        }
        return length
    }

    /// A copy carrying these string fields ("exif-ifd0-Make": "Apple"), integers ("orientation")
    /// and blobs ("xmp-data"): what a camera would have written, for photos made on the spot.
    func withFields(strings: [String: String] = [:], integers: [String: Int] = [:], blobs: [String: [UInt8]] = [:]) throws -> VipsImage {
        let copy = try derive { cvips_copy(pointer, &$0) }
        for (name, value) in strings { vips_image_set_string(copy.pointer, name, value) }
        for (name, value) in integers { vips_image_set_int(copy.pointer, name, Int32(value)) }
        for (name, bytes) in blobs {
            bytes.withUnsafeBytes { vips_image_set_blob_copy(copy.pointer, name, $0.baseAddress, bytes.count) }
        }
        return copy
    }

    /// Writes the image to `path` in the format its suffix names, metadata included.
    func save(to path: String) throws {
        guard cvips_save_file(pointer, path) == 0 else { throw VipsImage.lastError(kind: .vips) }
    }

    func autorotated() throws -> VipsImage { try derive { cvips_autorot(pointer, &$0) } }

    /// 8-bit sRGB through the embedded ICC profile, or `profile` ("cmyk", "srgb") when there is none.
    func iccToSRGB(fallbackProfile profile: String?) throws -> VipsImage {
        try derive { out in
            if let profile { return cvips_icc_to_srgb(pointer, profile, &out) }
            return cvips_icc_to_srgb(pointer, nil, &out)
        }
    }

    func toSRGB() throws -> VipsImage { try derive { cvips_colourspace(pointer, VIPS_INTERPRETATION_sRGB, &$0) } }

    func castToUChar() throws -> VipsImage { try derive { cvips_cast_uchar(pointer, &$0) } }

    func flattened(onto colour: RGB, maxAlpha: Double) throws -> VipsImage {
        try derive { cvips_flatten(pointer, Double(colour.red), Double(colour.green), Double(colour.blue), maxAlpha, &$0) }
    }

    func bands(_ first: Int, count: Int) throws -> VipsImage {
        try derive { cvips_extract_bands(pointer, Int32(first), Int32(count), &$0) }
    }

    func cropped(_ rect: PixelRect) throws -> VipsImage {
        try derive { cvips_extract_area(pointer, Int32(rect.x), Int32(rect.y), Int32(rect.width), Int32(rect.height), &$0) }
    }

    /// The rectangle, read by streaming the image from its first row: for decoders that only go
    /// forwards (JPEG, PNG), where asking for a rectangle far down makes libvips buffer the photo.
    func streamedCrop(_ rect: PixelRect, stop: RenderStop? = nil) throws -> VipsImage {
        // This is where the decoder runs, so a failure here is a damaged photo.
        try derive(failing: .corrupt) {
            cvips_rows_in_order(pointer, Int32(rect.x), Int32(rect.y), Int32(rect.width), Int32(rect.height), stop?.pointer, &$0)
        }
    }

    /// The same pixels, computed only while `stop` allows: whatever computes this image (an
    /// encoder, `inMemory`) fails at its next region once the stop has fired. Itself without a stop.
    func guarded(by stop: RenderStop?) throws -> VipsImage {
        guard let stop else { return self }
        return try derive { cvips_guarded(pointer, stop.pointer, &$0) }
    }

    func resized(horizontal: Double, vertical: Double) throws -> VipsImage {
        try derive { cvips_resize(pointer, horizontal, vertical, &$0) }
    }

    /// Scaled with a triangle kernel (widened for shrinks): cheaper than `resized`, for regions
    /// cut from a pyramid level that is at most twice the size wanted.
    func resizedLinearly(horizontal: Double, vertical: Double) throws -> VipsImage {
        try derive { cvips_resize_linear(pointer, horizontal, vertical, &$0) }
    }

    /// Shrunk to exactly `width` × `height` (neither above the image's) with the same triangle
    /// kernel, computed at once into memory: for an image in memory, or cut from one, read in place.
    func shrunkLinearly(toWidth width: Int, height: Int) throws -> VipsImage {
        try derive { cvips_shrink_linear(pointer, Int32(width), Int32(height), &$0) }
    }

    /// Crops to width × height around what draws the eye (skin tones, saturated colour, edges):
    /// AttentionCrop's measure, on the averages of a grid of at most 32 × 32 cells read in place
    /// (for an image in memory, as a thumbnail is: no pipeline and no worker threads). Images that
    /// are not 8-bit RGB (none that the renderer makes) go through libvips' own.
    func croppedToAttention(width: Int, height: Int) throws -> VipsImage {
        guard bands == 3, isEightBit, width <= self.width, height <= self.height else {
            return try croppedToLibvipsAttention(width: width, height: height)
        }
        let origin = try attentionOrigin(width: width, height: height)
        return try cropped(PixelRect(x: origin.x, y: origin.y, width: width, height: height))
    }

    /// Where `croppedToAttention` puts a width × height crop of this 8-bit RGB image.
    func attentionOrigin(width: Int, height: Int) throws -> (x: Int, y: Int) {
        let columns = min(32, self.width), rows = min(32, self.height)
        var rgb = [UInt8](repeating: 0, count: columns * rows * 3)
        guard cvips_box_grid(pointer, Int32(columns), Int32(rows), &rgb) == 0 else { throw VipsImage.lastError(kind: .vips) }
        return AttentionCrop.origin(rgb: rgb, columns: columns, rows: rows,
                                    pictureWidth: self.width, pictureHeight: self.height, width: width, height: height)
    }

    /// libvips' smartcrop with its attention measure: the same idea at ten times the cost.
    func croppedToLibvipsAttention(width: Int, height: Int) throws -> VipsImage {
        try derive { cvips_smartcrop(pointer, Int32(width), Int32(height), VIPS_INTERESTING_ATTENTION, &$0) }
    }

    /// Computes all pixels into memory, so that later steps may read them in any order.
    /// Only for small images (a thumbnail before cropping, a shrunk level).
    func inMemory() throws -> VipsImage {
        guard let copy = vips_image_copy_memory(pointer) else { throw VipsImage.lastError(kind: .corrupt) }
        return VipsImage(owning: copy)
    }

    /// Grows the image to exactly width × height by repeating its edge pixels.
    func padded(width: Int, height: Int) throws -> VipsImage {
        try derive { cvips_embed_copy(pointer, Int32(width), Int32(height), &$0) }
    }

    /// Computes the pixels and encodes them as a metadata-free JPEG.
    func jpeg(quality: Int) throws -> [UInt8] {
        var buffer: UnsafeMutableRawPointer?
        var length = 0
        guard cvips_jpegsave_buffer(pointer, Int32(quality), &buffer, &length) == 0, let buffer else {
            throw VipsImage.lastError(kind: .corrupt)
        }
        defer { g_free(buffer) }
        return Array(UnsafeRawBufferPointer(start: buffer, count: length))
    }

    func flippedHorizontally() throws -> VipsImage { try derive { cvips_flip_horizontal(pointer, &$0) } }

    /// Turned clockwise by `quarterTurns` × 90 degrees.
    func rotated(quarterTurns: Int) throws -> VipsImage { try derive { cvips_rot(pointer, Int32(quarterTurns), &$0) } }

    /// Turned clockwise by any angle, the corners of the bounding box filled with `background`
    /// (one value per band).
    func rotated(degrees: Double, background: [Double]) throws -> VipsImage {
        try derive { out in background.withUnsafeBufferPointer { cvips_rotate(pointer, degrees, $0.baseAddress, Int32(background.count), &out) } }
    }

    /// One band of luminance.
    func greyscale() throws -> VipsImage { try derive { cvips_colourspace(pointer, VIPS_INTERPRETATION_B_W, &$0) } }

    /// 255 where a pixel is at least `level`, else 0.
    func thresholded(at level: Double) throws -> VipsImage { try derive { cvips_threshold(pointer, level, &$0) } }

    /// With an opaque alpha band appended.
    func withAlpha() throws -> VipsImage { try derive { cvips_add_alpha(pointer, &$0) } }

    /// Computes the pixels and encodes them in the format `suffix` names, with its options
    /// (".png[bitdepth=1]", ".webp[Q=85,strip]").
    func encoded(suffix: String) throws -> [UInt8] {
        var buffer: UnsafeMutableRawPointer?
        var length = 0
        guard cvips_save_buffer(pointer, suffix, &buffer, &length) == 0, let buffer else {
            throw VipsImage.lastError(kind: .corrupt)
        }
        defer { g_free(buffer) }
        return Array(UnsafeRawBufferPointer(start: buffer, count: length))
    }

    /// The band values of one pixel (for checks of rendered output).
    func pixel(x: Int, y: Int) throws -> [Double] {
        var values: UnsafeMutablePointer<Double>?
        var count: Int32 = 0
        guard cvips_getpoint(pointer, Int32(x), Int32(y), &values, &count) == 0, let values else {
            throw VipsImage.lastError(kind: .vips)
        }
        defer { g_free(values) }
        return Array(UnsafeBufferPointer(start: values, count: Int(count)))
    }

    /// The pixels, computed, as packed bytes (band values of each pixel, row by row): for checks of
    /// rendered output.
    func memoryBytes() throws -> [UInt8] {
        var length = 0
        guard let data = vips_image_write_to_memory(pointer, &length) else { throw VipsImage.lastError(kind: .vips) }
        defer { g_free(data) }
        return Array(UnsafeRawBufferPointer(start: data, count: length))
    }

    /// Mean absolute difference per pixel and band against an image of the same shape.
    func meanAbsoluteDifference(to other: VipsImage) throws -> Double {
        var mean = 0.0
        guard cvips_mean_abs_difference(pointer, other.pointer, &mean) == 0 else { throw VipsImage.lastError(kind: .vips) }
        return mean
    }

    /// Streams the image into a DeepZoom pyramid at `base`.dzi and `base`_files/.
    func writeDeepZoom(base: String, tileSize: Int, suffix: String) throws {
        guard cvips_dzsave(pointer, base, Int32(tileSize), suffix) == 0 else {
            // The same call decodes the photo and writes the tiles: tell a full disk from a bad photo.
            let error = VipsImage.lastError(kind: .corrupt)
            if case .corrupt(let text) = error,
               ["No space left", "Permission denied", "Read-only file system", "unable to write", "write error"].contains(where: text.contains) {
                throw ImagingError.io(text)
            }
            throw error
        }
    }

    /// Runs one libvips operation that makes a new image from this one.
    private func derive(failing kind: ErrorKind = .vips,
                        _ operation: (inout UnsafeMutablePointer<CVips.VipsImage>?) -> Int32) throws -> VipsImage {
        try Self.made(failing: kind, operation)
    }

    enum ErrorKind { case corrupt, vips }

    /// libvips' error text (then cleared), as the ImagingError a failed call of that kind means.
    static func lastError(kind: ErrorKind) -> ImagingError {
        var text = "unknown libvips error"
        if let copy = vips_error_buffer_copy() {  // copies and clears under libvips' lock
            text = String(cString: copy).trimmingCharacters(in: .whitespacesAndNewlines)
            g_free(copy)
        }
        if text.isEmpty { text = "unknown libvips error" }
        switch kind {
        case .corrupt: return .corrupt(text)
        case .vips: return .vips(text)
        }
    }
}

// MARK: Operations by name

extension VipsImage {
    /// A `columns` × `rows` one-band image of `values`, row by row.
    static func matrix(_ values: [Double], columns: Int, rows: Int) throws -> VipsImage {
        guard let pointer = values.withUnsafeBufferPointer({
            vips_image_new_matrix_from_array(Int32(columns), Int32(rows), $0.baseAddress, Int32(values.count))
        }) else { throw lastError(kind: .vips) }
        return VipsImage(owning: pointer)
    }

    /// Runs one operation through libvips' generic API (set arguments, build, read "out"), which
    /// needs no varargs wrapper: string arguments as the `vips` command line takes them, image
    /// arguments as references. Returns its "out" image; nil when `output` is false (a saver).
    @discardableResult
    static func operation(_ name: String, _ arguments: [String: String], images: [String: VipsImage] = [:],
                          output: Bool = true) throws -> VipsImage? {
        guard let created = vips_operation_new(name) else { throw lastError(kind: .vips) }
        var operation: UnsafeMutablePointer<VipsOperation>? = created
        let object = UnsafeMutableRawPointer(created)
        defer {
            if let operation {
                vips_object_unref_outputs(UnsafeMutableRawPointer(operation).assumingMemoryBound(to: VipsObject.self))
                g_object_unref(gpointer(operation))
            }
        }
        for (key, value) in images {
            var gvalue = GValue()
            g_value_init(&gvalue, vips_image_get_type())
            g_value_set_object(&gvalue, gpointer(value.pointer))
            g_object_set_property(object.assumingMemoryBound(to: GObject.self), key, &gvalue)
            g_value_unset(&gvalue)
        }
        for (key, value) in arguments {
            guard vips_object_set_argument_from_string(object.assumingMemoryBound(to: VipsObject.self), key, value) == 0 else {
                throw lastError(kind: .vips)
            }
        }
        guard vips_cache_operation_buildp(&operation) == 0 else { throw lastError(kind: .vips) }
        let built = UnsafeMutableRawPointer(operation!)
        guard output else { return nil }
        var out = GValue()
        g_value_init(&out, vips_image_get_type())
        defer { g_value_unset(&out) }
        g_object_get_property(built.assumingMemoryBound(to: GObject.self), "out", &out)
        guard let image = g_value_dup_object(&out) else { throw ImagingError.vips("\(name) gave no image") }
        return VipsImage(owning: image.assumingMemoryBound(to: CVips.VipsImage.self))
    }
}

// MARK: JPEG straight through libjpeg

/// A JPEG decoded from the top down as 8-bit RGB rows, at 1, 1/2, 1/4 or 1/8 of its size.
///
/// libjpeg's DCT scaling makes the smaller sizes cost little more than reading the file's entropy
/// code, and rows are handed over as they are decoded: a pyramid streams through strips of them.
final class JPEGRows {
    private let reader: OpaquePointer
    /// Decoded size: the stored size divided by `scale`, rounded up.
    let width: Int
    let height: Int
    /// Rows handed over or skipped so far.
    private(set) var row = 0

    /// Starts decoding the JPEG open on `descriptor` (which stays the caller's) at 1/`scale`.
    convenience init(descriptor: Int32, scale: Int) throws {
        guard [1, 2, 4, 8].contains(scale) else { throw ImagingError.vips("JPEG scale 1/\(scale) is not one libjpeg has") }
        guard let reader = cjpeg_open(descriptor, Int32(scale)) else { throw VipsImage.lastError(kind: .corrupt) }
        self.init(reader: reader, firstRow: 0)
    }

    /// Starts decoding, at 1/`scale`, only a band of the JPEG that holds its (unscaled) rows
    /// `rows`, cut out at its restart markers; the band's first row is the whole image's row
    /// `row`. Nil when the file has no restarts there to cut at: decode it whole then.
    static func band(descriptor: Int32, scale: Int, holding rows: Range<Int>) -> JPEGRows? {
        guard [1, 2, 4, 8].contains(scale) else { return nil }
        var top: Int32 = 0
        guard let reader = cjpeg_open_band(descriptor, Int32(scale), Int32(rows.lowerBound), Int32(rows.upperBound), &top) else {
            return nil
        }
        bandsDecoded.add(1, ordering: .relaxed)
        return JPEGRows(reader: reader, firstRow: Int(top) / scale)
    }

    /// Starts decoding, at 1/`scale`, only a band of the JPEG open on `descriptor` that holds its
    /// (unscaled) rows `rows`, cut out with `index`, that file's scan index. Nil when the file no
    /// longer holds what the index says: decode it whole then.
    static func band(descriptor: Int32, scale: Int, holding rows: Range<Int>, index: JPEGScanIndex) -> JPEGRows? {
        guard [1, 2, 4, 8].contains(scale) else { return nil }
        var top: Int32 = 0
        guard let reader = cjpeg_open_indexed_band(descriptor, index.handle, Int32(scale), Int32(rows.lowerBound),
                                                   Int32(rows.upperBound), &top) else {
            return nil
        }
        bandsDecoded.add(1, ordering: .relaxed)
        return JPEGRows(reader: reader, firstRow: Int(top) / scale)
    }

    /// Whether `band` cuts any band of the JPEG open on `descriptor`: one baseline scan with a
    /// restart at the start of an MCU row at least every four rows.
    static func restartsAtRows(descriptor: Int32) -> Bool { cjpeg_restarts_at_rows(descriptor) == 1 }

    /// Bands decoded since the process started (tests tell by it which way a row was read).
    static let bandsDecoded = Atomic<Int>(0)

    private init(reader: OpaquePointer, firstRow: Int) {
        self.reader = reader
        width = Int(cjpeg_width(reader))
        height = firstRow + Int(cjpeg_height(reader))
        row = firstRow
    }

    deinit { cjpeg_close(reader) }

    /// Passes over `rows` rows (their entropy code is still read, nothing else is done).
    func skip(_ rows: Int) throws {
        guard rows > 0 else { return }
        guard cjpeg_skip(reader, Int32(rows)) == 0 else { throw VipsImage.lastError(kind: .corrupt) }
        row += rows
    }

    /// Decodes the next `rows` rows into `pixels`, `stride` bytes apart.
    func read(into pixels: UnsafeMutablePointer<UInt8>, stride: Int, rows: Int) throws {
        guard rows > 0 else { return }
        guard row + rows <= height else { throw ImagingError.corrupt("asked for rows past the image's end") }
        guard cjpeg_read(reader, pixels, stride, Int32(rows)) == 0 else { throw VipsImage.lastError(kind: .corrupt) }
        row += rows
    }
}

/// JPEG encoding and halving of plain RGB pixels, for tiles cut from strips.
enum RGBCodec {
    /// `width` × `height` pixels from `pixels`, rows `stride` bytes apart, as a metadata-free JPEG.
    static func jpeg(_ pixels: UnsafePointer<UInt8>, stride: Int, width: Int, height: Int, quality: Int) throws -> [UInt8] {
        var buffer: UnsafeMutablePointer<UInt8>?
        var length: UInt = 0
        guard cjpeg_encode(pixels, stride, Int32(width), Int32(height), Int32(quality), &buffer, &length) == 0, let buffer else {
            throw VipsImage.lastError(kind: .vips)
        }
        defer { cjpeg_free(buffer) }
        return Array(UnsafeBufferPointer(start: buffer, count: Int(length)))
    }

    /// Halves `width` × `height` pixels into `target`: each pixel the rounded mean of its 2×2 block.
    static func halve(_ source: UnsafePointer<UInt8>, stride: Int, width: Int, height: Int,
                      into target: UnsafeMutablePointer<UInt8>, targetStride: Int) {
        cjpeg_halve(source, stride, Int32(width), Int32(height), target, targetStride)
    }
}

extension VipsImage {
    /// A libvips image holding a copy of `width` × `height` RGB pixels.
    static func rgb(_ pixels: UnsafePointer<UInt8>, width: Int, height: Int) throws -> VipsImage {
        var out: UnsafeMutablePointer<CVips.VipsImage>?
        guard cvips_image_from_rgb(pixels, Int32(width), Int32(height), &out) == 0, let out else { throw lastError(kind: .vips) }
        return VipsImage(owning: out)
    }
}
