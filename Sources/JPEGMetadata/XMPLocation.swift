/// Where a photo was taken, taken out of an XMP packet: every element and attribute whose local
/// name says a place (`exif:GPSLatitude`, `photoshop:City`, `Iptc4xmpCore:Location`,
/// `Iptc4xmpExt:LocationShown`…), whatever prefix its namespace has, with all it contains. The
/// rest of the packet is copied byte for byte. A packet this small reader cannot follow (a
/// DOCTYPE, an unclosed tag, a stray quote) is not edited: `removed` answers nil and the packet
/// is dropped whole.
enum XMPLocation {
    /// Local names of the XMP properties that say where, besides every `GPS…` one.
    static let placeNames: Set<String> = [
        "City", "State", "Country", "CountryCode", "CountryName", "Location", "Sublocation",
        "ProvinceState", "LocationCreated", "LocationShown", "WorldRegion",
    ]

    /// Elements open at once, at most: deeper nesting is not XMP as cameras and editors write it.
    static let maxDepth = 256

    static func isPlace(_ qualifiedName: ArraySlice<UInt8>) -> Bool {
        let local = qualifiedName.lastIndex(of: UInt8(ascii: ":")).map { qualifiedName[($0 + 1)...] } ?? qualifiedName
        if local.starts(with: "GPS".utf8) { return true }
        return placeNames.contains(String(decoding: local, as: UTF8.self))
    }

    /// `packet` without any property that says where, or nil when it cannot be read safely.
    static func removed(_ packet: ArraySlice<UInt8>) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(packet.count)
        var skipping = 0  // depth inside an element being left out
        var open: [ArraySlice<UInt8>] = []  // the elements open, each closed by its own name
        var at = packet.startIndex
        let end = packet.endIndex
        func find(_ needle: String, from: Int) -> Int? {
            let n = Array(needle.utf8)
            var i = from
            while i <= end - n.count {
                if packet[i] == n[0] && packet[i..<(i + n.count)].elementsEqual(n) { return i + n.count }
                i += 1
            }
            return nil
        }
        while at < end {
            guard packet[at] == UInt8(ascii: "<") else {
                if skipping == 0 { out.append(packet[at]) }
                at += 1
                continue
            }
            let rest = packet[at...]
            var closing: String?
            if rest.starts(with: "<?".utf8) { closing = "?>" }
            else if rest.starts(with: "<!--".utf8) { closing = "-->" }
            else if rest.starts(with: "<![CDATA[".utf8) { closing = "]]>" }
            else if rest.starts(with: "<!".utf8) { return nil }
            if let closing {
                guard let after = find(closing, from: at + 2) else { return nil }
                if skipping == 0 { out += packet[at..<after] }
                at = after
                continue
            }
            if rest.starts(with: "</".utf8) {
                guard let after = find(">", from: at + 2) else { return nil }
                var name = packet[(at + 2)..<(after - 1)]
                while let last = name.last, last == 0x20 || last == 0x09 || last == 0x0A || last == 0x0D { name = name.dropLast() }
                guard let opened = open.popLast(), opened.elementsEqual(name) else { return nil }
                if skipping > 0 { skipping -= 1 } else { out += packet[at..<after] }
                at = after
                continue
            }
            guard let tag = StartTag(packet, at: at) else { return nil }
            if !tag.empty {
                guard open.count < maxDepth else { return nil }
                open.append(packet[tag.name])
            }
            if skipping > 0 {
                if !tag.empty { skipping += 1 }
            } else if isPlace(packet[tag.name]) {
                if !tag.empty { skipping = 1 }
            } else {
                out += packet[at..<tag.name.upperBound]
                for attribute in tag.attributes where !isPlace(packet[attribute.name]) { out += packet[attribute.whole] }
                out += packet[tag.close]
            }
            at = tag.close.upperBound
        }
        return open.isEmpty ? out : nil
    }
}
