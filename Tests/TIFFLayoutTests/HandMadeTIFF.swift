/// Classic little-endian TIFF bytes made by hand: a tiled pyramid whose levels are pages, every
/// tile four bytes, and knobs that make it lie.
struct HandMadeTIFF {
    /// Each level's width and height, largest first.
    var levels: [(width: Int, height: Int)]
    var tile = 16
    /// Page index → the page the "next directory" of that page points at instead (a loop).
    var next: [Int: Int] = [:]
    /// Added to every tile offset (pointing past the end).
    var tileOffsetShift = 0
    /// The number of tile offsets every level claims, instead of its grid's.
    var claimedTiles: Int?

    var bytes: [UInt8] {
        let entries = 11
        let tileData: [UInt8] = [0x54, 0x49, 0x4C, 0x45]
        // Where each page's directory and its two arrays go.
        var starts: [Int] = []
        var position = 8
        for level in levels {
            starts.append(position)
            let count = claimedTiles ?? grid(level)
            position += 2 + entries * 12 + 4 + 8 * count
        }
        let dataOffset = position
        var out: [UInt8] = [0x49, 0x49, 42, 0] + le32(8)
        for (index, level) in levels.enumerated() {
            let count = claimedTiles ?? grid(level)
            let offsetsAt = starts[index] + 2 + entries * 12 + 4
            let countsAt = offsetsAt + 4 * count
            out += le16(entries)
            out += entry(254, 4, 1, index == 0 ? 0 : 1)
            out += entry(256, 4, 1, level.width)
            out += entry(257, 4, 1, level.height)
            out += entry(258, 3, 1, 8)
            out += entry(259, 3, 1, 1)
            out += entry(262, 3, 1, 1)
            out += entry(277, 3, 1, 1)
            out += entry(322, 3, 1, tile)
            out += entry(323, 3, 1, tile)
            out += entry(324, 4, count, count == 1 ? dataOffset + tileOffsetShift : offsetsAt)
            out += entry(325, 4, count, count == 1 ? 4 : countsAt)
            let following = next[index].map { starts[$0] } ?? (index + 1 < levels.count ? starts[index + 1] : 0)
            out += le32(following)
            for _ in 0..<count { out += le32(dataOffset + tileOffsetShift) }
            for _ in 0..<count { out += le32(4) }
        }
        return out + tileData
    }

    private func grid(_ level: (width: Int, height: Int)) -> Int {
        ((level.width + tile - 1) / tile) * ((level.height + tile - 1) / tile)
    }

    private func entry(_ tag: Int, _ type: Int, _ count: Int, _ value: Int) -> [UInt8] {
        le16(tag) + le16(type) + le32(count) + (type == 3 && count == 1 ? le16(value) + [0, 0] : le32(value))
    }

    private func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
    private func le32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(value >> (8 * $0) & 0xFF) } }
}
