/// A JPEG-compressed TIFF tile made a JPEG file of its own: the tables the TIFF keeps once for
/// all its tiles (JPEGTables) put in front of the tile's own stream, so a browser decodes it
/// exactly as a TIFF reader would, without decoding or encoding anything here.
public enum JPEGTileJoin {
    /// `tables` (SOI, DQT/DHT segments, EOI) and `tile` (SOI … EOI) as one stream; nil when
    /// either is not shaped as that.
    public static func join(tables: [UInt8]?, tile: [UInt8]) -> [UInt8]? {
        guard tile.count > 4, tile[0] == 0xFF, tile[1] == 0xD8 else { return nil }
        guard let tables else { return tile }
        guard tables.count >= 4, tables[0] == 0xFF, tables[1] == 0xD8,
              tables[tables.count - 2] == 0xFF, tables[tables.count - 1] == 0xD9 else { return nil }
        return Array(tables.dropLast(2)) + tile.dropFirst(2)
    }
}
