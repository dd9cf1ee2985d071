/// Where a JPEG's parts are: its marker segments up to the first scan, then the image data from
/// that scan's SOS marker to the end of the image (EOI), and whatever trails it. Read without
/// decoding anything; every length is checked against the bytes there are, and every step moves
/// forward, so no input makes the walk loop or read past the end.
struct JPEGLayout {
    struct Segment {
        /// The marker's second byte (`0xE1` for APP1).
        let marker: UInt8
        /// The segment's payload, after its marker and two length bytes.
        let payload: Range<Int>
    }

    /// The marker segments before the first SOS, in file order.
    let segments: [Segment]
    /// From the first SOS marker to the end of the EOI marker (or of the file, when a truncated
    /// file has none): the bytes kept exactly as they are.
    let image: Range<Int>

    /// Marker segments that may sit between the scans of a progressive or multi-scan JPEG.
    private static let betweenScans: Set<UInt8> = [0xC4, 0xCC, 0xDA, 0xDB, 0xDC, 0xDD, 0xFE]

    init(_ bytes: [UInt8]) throws(JPEGLocationError) {
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { throw JPEGLocationError("the file does not start as a JPEG does") }
        var segments: [Segment] = []
        var at = 2
        while true {
            guard at < bytes.count, bytes[at] == 0xFF else { throw JPEGLocationError("a marker was expected at byte \(at)") }
            while at < bytes.count - 1, bytes[at + 1] == 0xFF { at += 1 }  // fill bytes
            guard at + 1 < bytes.count else { throw JPEGLocationError("the file ends before its image data") }
            let marker = bytes[at + 1]
            guard marker != 0x00, marker != 0x01, marker != 0xD8, marker != 0xD9, !(0xD0...0xD7).contains(marker) else {
                throw JPEGLocationError("marker \(Self.hex(marker)) where a segment was expected, before any image data")
            }
            let payload = try Self.payload(bytes, marker: at)
            if marker == 0xDA {
                image = at..<(try Self.endOfImage(bytes, from: payload.upperBound))
                break
            }
            segments.append(Segment(marker: marker, payload: payload))
            at = payload.upperBound
        }
        self.segments = segments
    }

    /// A segment's payload: its two length bytes count themselves and what follows.
    private static func payload(_ bytes: [UInt8], marker at: Int) throws(JPEGLocationError) -> Range<Int> {
        guard at + 4 <= bytes.count else { throw JPEGLocationError("the file ends inside a segment's length") }
        let length = Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
        guard length >= 2, at + 2 + length <= bytes.count else {
            throw JPEGLocationError("segment \(Self.hex(bytes[at + 1])) at byte \(at) is longer than the file")
        }
        return (at + 4)..<(at + 2 + length)
    }

    /// Walks the entropy-coded data and the tables between scans to the EOI marker, and returns
    /// the offset just past it (the file's end when it has none).
    private static func endOfImage(_ bytes: [UInt8], from start: Int) throws(JPEGLocationError) -> Int {
        var at = start
        while true {
            guard let mark = bytes[at...].firstIndex(of: 0xFF) else { return bytes.count }
            guard mark + 1 < bytes.count else { return bytes.count }
            let next = bytes[mark + 1]
            if next == 0x00 || next == 0xFF || (0xD0...0xD7).contains(next) {
                at = mark + (next == 0xFF ? 1 : 2)
            } else if next == 0xD9 {
                return mark + 2
            } else if betweenScans.contains(next) {
                at = try payload(bytes, marker: mark).upperBound
            } else {
                throw JPEGLocationError("marker \(hex(next)) inside the image data")
            }
        }
    }

    static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return "0xFF" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 15)])
    }
}
