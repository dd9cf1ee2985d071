/// JPEGs put together byte by byte for the tests: the metadata segments a camera or an editor
/// writes (Exif with a GPS directory, XMP, Photoshop IPTC) in front of a stand-in scan, in
/// either TIFF byte order.
struct SampleJPEG {
    var bigEndian = false
    var gps = true
    var xmp: String? = nil
    var iptc: [(record: UInt8, dataset: UInt8, text: String)]? = nil
    /// The bytes after the SOS header, up to and with the EOI.
    var scan: [UInt8] = [0x12, 0xFF, 0x00, 0x34, 0xFF, 0xD0, 0x56, 0xFF, 0xD9]

    static let latitude: [UInt8] = [0, 0, 0, 51, 0, 0, 0, 1, 0, 0, 0, 30, 0, 0, 0, 1, 0, 0, 0x1F, 0x40, 0, 0, 0, 100]

    func u16(_ v: Int) -> [UInt8] { bigEndian ? [UInt8(v >> 8), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8)] }
    func u32(_ v: Int) -> [UInt8] { bigEndian ? u16(v >> 16) + u16(v & 0xFFFF) : u16(v & 0xFFFF) + u16(v >> 16) }
    func entry(_ tag: Int, _ type: Int, _ count: Int, _ value: [UInt8]) -> [UInt8] {
        u16(tag) + u16(type) + u32(count) + value + [UInt8](repeating: 0, count: 4 - value.count)
    }

    /// The TIFF block: IFD0 (Make at 8 + …, Orientation, the GPS pointer), then the GPS
    /// directory (latitude reference and latitude), then the values stored outside entries.
    var tiff: [UInt8] {
        let make = Array("Camera\u{0}".utf8)
        let entries = gps ? 3 : 2
        let ifd0End = 8 + 2 + entries * 12 + 4
        let gpsAt = ifd0End
        let gpsEnd = gpsAt + 2 + 2 * 12 + 4
        let makeAt = gps ? gpsEnd + Self.latitude.count : ifd0End
        var out: [UInt8] = (bigEndian ? [0x4D, 0x4D, 0, 0x2A] : [0x49, 0x49, 0x2A, 0]) + u32(8)
        out += u16(entries) + entry(0x010F, 2, make.count, u32(makeAt)) + entry(0x0112, 3, 1, u16(6))
        if gps { out += entry(0x8825, 4, 1, u32(gpsAt)) }
        out += u32(0)
        if gps {
            out += u16(2) + entry(0x0001, 2, 2, Array("N\u{0}".utf8)) + entry(0x0002, 5, 3, u32(gpsEnd)) + u32(0)
            out += Self.latitude
        }
        return out + make
    }

    static func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
        [0xFF, marker, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
    }

    var iptcBlock: [UInt8] {
        var record: [UInt8] = []
        for d in iptc ?? [] {
            let text = Array(d.text.utf8)
            record += [0x1C, d.record, d.dataset, UInt8(text.count >> 8), UInt8(text.count & 0xFF)] + text
        }
        var block = Array("Photoshop 3.0\u{0}8BIM".utf8) + [0x04, 0x04, 0, 0]
        block += [UInt8(record.count >> 24), UInt8(record.count >> 16 & 0xFF), UInt8(record.count >> 8 & 0xFF), UInt8(record.count & 0xFF)] + record
        if record.count & 1 == 1 { block.append(0) }
        return block
    }

    /// Where the image data starts: the SOS marker.
    var headerLength: Int { bytes.count - scan.count - 10 }

    var bytes: [UInt8] {
        var out: [UInt8] = [0xFF, 0xD8]
        out += Self.segment(0xE0, Array("JFIF\u{0}".utf8) + [1, 1, 0, 0, 1, 0, 1, 0, 0])
        out += Self.segment(0xE1, Array("Exif\u{0}\u{0}".utf8) + tiff)
        if let xmp { out += Self.segment(0xE1, Array("http://ns.adobe.com/xap/1.0/\u{0}".utf8) + Array(xmp.utf8)) }
        if iptc != nil { out += Self.segment(0xED, iptcBlock) }
        out += Self.segment(0xDB, [0] + [UInt8](repeating: 1, count: 64))
        out += Self.segment(0xC0, [8, 0, 8, 0, 8, 1, 1, 0x11, 0])
        out += Self.segment(0xDA, [1, 1, 0, 0, 0x3F, 0])
        return out + scan
    }
}
