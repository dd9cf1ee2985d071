/// An EXIF block as libvips hands it over ("exif-data": the TIFF structure, with or without the
/// `Exif\0\0` of a JPEG's APP1): directories of tagged values, read with every offset and count
/// checked against the block, so a hostile block can only fail to say things.
struct ExifBlock {
    /// One value of a directory entry, as its TIFF type stores it.
    enum Value: Equatable {
        /// ASCII (type 2): bytes up to the first NUL.
        case text([UInt8])
        /// BYTE, SHORT, LONG, SBYTE, SSHORT, SLONG (types 1, 3, 4, 6, 8, 9).
        case integers([Int64])
        /// RATIONAL and SRATIONAL (types 5, 10): numerator and denominator.
        case rationals([(Int64, Int64)])
        /// UNDEFINED (type 7) and anything else: the raw bytes.
        case bytes([UInt8])

        static func == (a: Value, b: Value) -> Bool {
            switch (a, b) {
            case (.text(let x), .text(let y)), (.bytes(let x), .bytes(let y)): x == y
            case (.integers(let x), .integers(let y)): x == y
            case (.rationals(let x), .rationals(let y)): x.count == y.count && zip(x, y).allSatisfy { $0 == $1 }
            default: false
            }
        }
    }

    /// Why a block could not be read at all.
    struct Unreadable: Error, Equatable { var reason: String }

    /// The entries of IFD0 (the photo), its EXIF sub-directory and its GPS sub-directory, by tag.
    private(set) var primary: [UInt16: Value] = [:]
    private(set) var exif: [UInt16: Value] = [:]
    private(set) var gps: [UInt16: Value] = [:]

    /// Most entries read from one directory: a real one has a few dozen.
    static let maxEntries = 512
    /// Most components kept of a number array (GPS needs three); text is bounded by the block.
    static let maxNumbers = 16

    private let bytes: [UInt8]
    private let base: Int
    private let bigEndian: Bool

    init(_ blob: [UInt8]) throws {
        var start = 0
        if blob.count >= 6, blob[0...5].elementsEqual([0x45, 0x78, 0x69, 0x66, 0, 0]) { start = 6 }  // "Exif\0\0"
        guard blob.count - start >= 8 else { throw Unreadable(reason: "is too short to be an EXIF block") }
        bytes = blob
        base = start
        switch (blob[start], blob[start + 1]) {
        case (0x49, 0x49): bigEndian = false  // "II"
        case (0x4D, 0x4D): bigEndian = true   // "MM"
        default: throw Unreadable(reason: "does not start with a TIFF byte order mark")
        }
        guard u16(2) == 42, let first = u32(4) else { throw Unreadable(reason: "is not a TIFF structure") }
        guard let ifd0 = directory(at: Int(first)) else { throw Unreadable(reason: "points to its first directory outside the block") }
        primary = ifd0
        if case .integers(let offsets)? = ifd0[0x8769], let offset = offsets.first, let sub = directory(at: Int(offset)) { exif = sub }
        if case .integers(let offsets)? = ifd0[0x8825], let offset = offsets.first, let sub = directory(at: Int(offset)) { gps = sub }
    }

    // MARK: - Reading

    /// The entries of the directory at `offset` (from the TIFF header), or nil when it lies outside.
    private func directory(at offset: Int) -> [UInt16: Value]? {
        guard offset >= 8, let count = u16(offset) else { return nil }
        var entries: [UInt16: Value] = [:]
        for k in 0..<min(Int(count), Self.maxEntries) {
            let entry = offset + 2 + k * 12
            guard let tag = u16(entry), let type = u16(entry + 2), let components = u32(entry + 4) else { break }
            if entries[tag] == nil, let value = value(type: type, count: Int(components), entry: entry) { entries[tag] = value }
        }
        return entries
    }

    private func value(type: UInt16, count: Int, entry: Int) -> Value? {
        let size: Int
        switch type {
        case 1, 2, 6, 7: size = 1
        case 3, 8: size = 2
        case 4, 9: size = 4
        case 5, 10: size = 8
        default: return nil
        }
        guard count > 0, count <= bytes.count else { return nil }
        let length = count * size
        // Four bytes or fewer sit in the entry itself; more are elsewhere, at the offset it holds.
        let start: Int
        if length <= 4 {
            start = entry + 8
        } else {
            guard let offset = u32(entry + 8) else { return nil }
            start = Int(offset)
        }
        guard start >= 0, start <= bytes.count - base - length else { return nil }
        let kept = min(count, Self.maxNumbers)
        switch type {
        case 2:
            let raw = bytes[(base + start)..<(base + start + length)]
            return .text(Array(raw.prefix { $0 != 0 }))
        case 7:
            return .bytes(Array(bytes[(base + start)..<(base + start + length)]))
        case 1: return .integers((0..<kept).map { Int64(bytes[base + start + $0]) })
        case 6: return .integers((0..<kept).map { Int64(Int8(bitPattern: bytes[base + start + $0])) })
        case 3: return .integers((0..<kept).compactMap { u16(start + 2 * $0).map(Int64.init) })
        case 8: return .integers((0..<kept).compactMap { u16(start + 2 * $0).map { Int64(Int16(bitPattern: $0)) } })
        case 4: return .integers((0..<kept).compactMap { u32(start + 4 * $0).map(Int64.init) })
        case 9: return .integers((0..<kept).compactMap { u32(start + 4 * $0).map { Int64(Int32(bitPattern: $0)) } })
        case 5:
            return .rationals((0..<kept).compactMap { k in
                guard let n = u32(start + 8 * k), let d = u32(start + 8 * k + 4) else { return nil }
                return (Int64(n), Int64(d))
            })
        case 10:
            return .rationals((0..<kept).compactMap { k in
                guard let n = u32(start + 8 * k), let d = u32(start + 8 * k + 4) else { return nil }
                return (Int64(Int32(bitPattern: n)), Int64(Int32(bitPattern: d)))
            })
        default: return nil
        }
    }

    /// A 16-bit number at `offset` from the TIFF header, or nil past the end.
    private func u16(_ offset: Int) -> UInt16? {
        let at = base + offset
        guard offset >= 0, at + 2 <= bytes.count else { return nil }
        let a = UInt16(bytes[at]), b = UInt16(bytes[at + 1])
        return bigEndian ? a << 8 | b : b << 8 | a
    }

    private func u32(_ offset: Int) -> UInt32? {
        let at = base + offset
        guard offset >= 0, at + 4 <= bytes.count else { return nil }
        let b = (0..<4).map { UInt32(bytes[at + $0]) }
        return bigEndian ? b[0] << 24 | b[1] << 16 | b[2] << 8 | b[3] : b[3] << 24 | b[2] << 16 | b[1] << 8 | b[0]
    }
}
