/// IPTC-IIM datasets ("iptc-data"): in a JPEG, the Photoshop resource block of APP13 whose
/// resource 0x0404 holds them; elsewhere the datasets alone. Only the application record (2)
/// is kept, and only its first value of each dataset.
struct IPTCRecord {
    /// Dataset number → bytes, of record 2: 55 is Date Created (CCYYMMDD), 60 Time Created (HHMMSS±HHMM).
    private(set) var datasets: [UInt8: [UInt8]] = [:]

    init(_ blob: [UInt8]) {
        let photoshop = Array("Photoshop 3.0\0".utf8)
        if blob.starts(with: photoshop) {
            if let iim = Self.resource(0x0404, in: blob, from: photoshop.count) { read(iim[...]) }
        } else if blob.starts(with: Array("8BIM".utf8)) {
            if let iim = Self.resource(0x0404, in: blob, from: 0) { read(iim[...]) }
        } else {
            read(blob[...])
        }
    }

    /// The date and time the photo was made, when both datasets parse.
    var created: (date: [UInt8], time: [UInt8]?)? {
        guard let date = datasets[55] else { return nil }
        return (date, datasets[60])
    }

    /// The data of Photoshop image resource `id` in a list of "8BIM" resources.
    private static func resource(_ id: UInt16, in blob: [UInt8], from start: Int) -> [UInt8]? {
        var i = start
        while i + 12 <= blob.count, blob[i..<(i + 4)].elementsEqual(Array("8BIM".utf8)) {
            let resourceID = UInt16(blob[i + 4]) << 8 | UInt16(blob[i + 5])
            // A Pascal name, padded so that length byte and name take an even count.
            let nameLength = Int(blob[i + 6])
            var at = i + 6 + 1 + nameLength
            if (1 + nameLength) % 2 == 1 { at += 1 }
            guard at + 4 <= blob.count else { return nil }
            let size = Int(blob[at]) << 24 | Int(blob[at + 1]) << 16 | Int(blob[at + 2]) << 8 | Int(blob[at + 3])
            let dataStart = at + 4
            guard size >= 0, size <= blob.count - dataStart else { return nil }
            if resourceID == id { return Array(blob[dataStart..<(dataStart + size)]) }
            i = dataStart + size + (size % 2)
        }
        return nil
    }

    /// Datasets: 0x1C, record, dataset, a 16-bit length, the data. An extended length (high bit
    /// set), which no date needs, ends the reading.
    private mutating func read(_ bytes: ArraySlice<UInt8>) {
        var i = bytes.startIndex
        while i + 5 <= bytes.endIndex, bytes[i] == 0x1C {
            let record = bytes[i + 1], dataset = bytes[i + 2]
            let length = Int(bytes[i + 3]) << 8 | Int(bytes[i + 4])
            guard length & 0x8000 == 0, i + 5 + length <= bytes.endIndex else { return }
            if record == 2, datasets[dataset] == nil { datasets[dataset] = Array(bytes[(i + 5)..<(i + 5 + length)]) }
            i += 5 + length
        }
    }
}
