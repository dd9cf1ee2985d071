/// One resolution of a tiled TIFF: its size, its tiles and how they are stored.
public struct TIFFLevel: Sendable, Hashable {
    /// How a reader names the level: a page of the main chain, or a SubIFD of the first page.
    public enum Place: Sendable, Hashable {
        case page(Int)
        case subDirectory(Int)
    }

    /// TIFF's Compression values this server reads tiles of.
    public enum Compression: Int, Sendable {
        case none = 1
        case jpeg = 7
        case deflate = 8
        case oldDeflate = 32946
    }

    public let place: Place
    public let width: Int
    public let height: Int
    public let tileWidth: Int
    public let tileHeight: Int
    /// The raw Compression value.
    public let compression: Int
    /// PhotometricInterpretation: 1 grey, 2 RGB, 6 YCbCr, others.
    public let photometric: Int
    public let samplesPerPixel: Int
    public let bitsPerSample: Int
    /// Orientation (1 when absent).
    public let orientation: Int
    /// An ICC profile is embedded.
    public let hasProfile: Bool
    /// Extra samples (alpha) are present.
    public let hasExtraSamples: Bool
    /// PlanarConfiguration 2: each sample in its own tiles.
    public let separatePlanes: Bool
    /// The JPEGTables field's bytes (a JPEG stream of tables alone), when there is one.
    public let jpegTables: [UInt8]?
    let offsets: TIFFIntegerArray
    let byteCounts: TIFFIntegerArray

    /// Largest tile read, in bytes: a count above it is a lie.
    public static let maxTileBytes = 64 << 20

    /// Tiles across and down.
    public var columns: Int { (width + tileWidth - 1) / tileWidth }
    public var rows: Int { (height + tileHeight - 1) / tileHeight }

    /// Where tile (`column`, `row`) lies in the file, checked to lie within it.
    public func tile(column: Int, row: Int, in bytes: TIFFBytes) throws(TIFFLayoutError) -> (offset: Int, length: Int) {
        guard column >= 0, row >= 0, column < columns, row < rows else { throw .inconsistent("no tile \(column),\(row)") }
        let index = row * columns + column
        guard let offset = offsets.value(index, in: bytes), let length = byteCounts.value(index, in: bytes) else {
            throw .pastTheEnd("a tile's offset")
        }
        guard length > 0, length <= Self.maxTileBytes, offset >= 0, offset <= bytes.count - length else {
            throw .pastTheEnd("tile \(column),\(row)")
        }
        return (offset, length)
    }

    /// The level a directory describes, when it is a tiled image whose arrays agree with its size.
    /// Nil when it is not tiled (strips); throws when it says contradictory things.
    static func read(_ directory: TIFFDirectory, place: Place, in bytes: TIFFBytes) throws(TIFFLayoutError) -> TIFFLevel? {
        guard let tileWidth = directory.integer(322, in: bytes), let tileHeight = directory.integer(323, in: bytes) else { return nil }
        guard let width = directory.integer(256, in: bytes), let height = directory.integer(257, in: bytes),
              width > 0, height > 0, width <= 10_000_000, height <= 10_000_000 else {
            throw .inconsistent("a tiled directory without a usable size")
        }
        guard tileWidth >= 16, tileHeight >= 16, tileWidth <= 8192, tileHeight <= 8192 else {
            throw .inconsistent("tiles of \(tileWidth)×\(tileHeight)")
        }
        guard let offsets = try directory.array(324, in: bytes), let counts = try directory.array(325, in: bytes) else {
            throw .inconsistent("a tiled directory without tile offsets")
        }
        let samples = directory.integer(277, in: bytes) ?? 1
        guard samples >= 1, samples <= 16 else { throw .inconsistent("\(samples) samples a pixel") }
        let separate = directory.integer(284, in: bytes) == 2
        let grid = ((width + tileWidth - 1) / tileWidth) * ((height + tileHeight - 1) / tileHeight)
        let expected = separate ? grid * samples : grid
        guard offsets.count == expected, counts.count == expected else {
            throw .inconsistent("\(offsets.count) tile offsets for \(expected) tiles of a \(width)×\(height) level")
        }
        return TIFFLevel(place: place, width: width, height: height, tileWidth: tileWidth, tileHeight: tileHeight,
                         compression: directory.integer(259, in: bytes) ?? 1, photometric: directory.integer(262, in: bytes) ?? 1,
                         samplesPerPixel: samples, bitsPerSample: directory.integer(258, in: bytes) ?? 1,
                         orientation: directory.integer(274, in: bytes) ?? 1, hasProfile: directory.has(34675),
                         hasExtraSamples: directory.has(338), separatePlanes: separate,
                         jpegTables: directory.blob(347, limit: 1 << 16, in: bytes), offsets: offsets, byteCounts: counts)
    }
}
