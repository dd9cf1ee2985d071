import Foundation

extension PhotoRenderer {
    /// Whether a built tile reads back whole: a JPEG from its start marker to its end marker
    /// (libjpeg pads a cut file and only warns, so a truncated tile is caught here) that decodes
    /// to the `width` × `height` pixels its place in the pyramid says.
    public static func tileReadsBack(_ path: String, width: Int, height: Int) -> Bool {
        guard let bytes = FileManager.default.contents(atPath: path), bytes.count > 4,
              bytes[bytes.startIndex] == 0xFF, bytes[bytes.startIndex + 1] == 0xD8,
              bytes[bytes.endIndex - 2] == 0xFF, bytes[bytes.endIndex - 1] == 0xD9 else { return false }
        let rect = PixelRect(x: 0, y: 0, width: width, height: height)
        return (try? VipsImage.decodedJPEGTiles([path], columns: 1, tileSize: max(width, height), rect: rect)) != nil
    }
}
