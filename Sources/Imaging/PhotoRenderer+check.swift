import Foundation

extension PhotoRenderer {
    /// Whether a built tile reads back whole: a JPEG from its start marker to its end marker (a
    /// cut file is turned away before it is decoded at all) that decodes to the `width` × `height`
    /// pixels its place in the pyramid says.
    public static func tileReadsBack(_ path: String, width: Int, height: Int) -> Bool {
        guard let bytes = FileManager.default.contents(atPath: path), bytes.count > 4,
              bytes[bytes.startIndex] == 0xFF, bytes[bytes.startIndex + 1] == 0xD8,
              bytes[bytes.endIndex - 2] == 0xFF, bytes[bytes.endIndex - 1] == 0xD9 else { return false }
        let rect = PixelRect(x: 0, y: 0, width: width, height: height)
        return (try? VipsImage.decodedJPEGTiles([path], columns: 1, tileSize: max(width, height), rect: rect)) != nil
    }
}
