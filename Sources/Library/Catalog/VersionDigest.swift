import Foundation

/// The 64-bit digest that names versions (`RenderSettings.version`), in the style of xxHash64.
///
/// It was the content hash of files before xxHash (`ContentHash`) took over. Kept bit for bit:
/// every version, and so every tile folder and `?v=` URL handed out, is derived with it, and
/// catalogs keep content hashes made with it (`CatalogEntry.hashKind` 0) that a rescan must still
/// be able to confirm without rebuilding the photo.
struct VersionDigest: Sendable {
    private static let p1: UInt64 = 0x9E37_79B1_85EB_CA87
    private static let p2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    private static let p3: UInt64 = 0x1656_67B1_9E37_79F9
    private static let p4: UInt64 = 0x85EB_CA77_C2B2_AE63
    private static let p5: UInt64 = 0x27D4_EB2F_1656_67C5

    private var a: UInt64 = p1 &+ p2
    private var b: UInt64 = p2
    private var c: UInt64 = 0
    private var d: UInt64 = 0 &- p1
    private var total: UInt64 = 0
    private var tail: [UInt8] = []

    init() {}

    @inline(__always)
    private static func round(_ acc: UInt64, _ input: UInt64) -> UInt64 {
        let mixed = acc &+ input &* p2
        return ((mixed << 31) | (mixed >> 33)) &* p1
    }

    /// Adds bytes. Whole stripes are hashed in place; a short remainder waits for more.
    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        total &+= UInt64(bytes.count)
        var offset = 0
        if !tail.isEmpty {
            let take = min(32 - tail.count, bytes.count)
            tail.append(contentsOf: bytes[0..<take])
            offset = take
            guard tail.count == 32 else { return }
            let stripe = tail
            tail.removeAll(keepingCapacity: true)
            stripe.withUnsafeBytes { stripeBytes in consumeStripes(stripeBytes, 0, 32) }
        }
        let whole = (bytes.count - offset) / 32 * 32
        consumeStripes(bytes, offset, whole)
        if offset + whole < bytes.count { tail.append(contentsOf: bytes[(offset + whole)...]) }
    }

    private mutating func consumeStripes(_ bytes: UnsafeRawBufferPointer, _ start: Int, _ count: Int) {
        var a = self.a, b = self.b, c = self.c, d = self.d
        var i = start
        let end = start + count
        while i < end {
            a = Self.round(a, UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self)))
            b = Self.round(b, UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: i + 8, as: UInt64.self)))
            c = Self.round(c, UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: i + 16, as: UInt64.self)))
            d = Self.round(d, UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: i + 24, as: UInt64.self)))
            i += 32
        }
        self.a = a; self.b = b; self.c = c; self.d = d
    }

    /// Adds the bytes of an array.
    mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// The hash of everything added so far.
    func finalize() -> UInt64 {
        tail.withUnsafeBytes { finalize(remainder: $0) }
    }

    /// The hash once `remainder` (under 32 bytes, not yet added) is taken as the tail.
    private func finalize(remainder: UnsafeRawBufferPointer) -> UInt64 {
        func rotl(_ v: UInt64, _ n: UInt64) -> UInt64 { (v << n) | (v >> (64 - n)) }
        func merge(_ h: UInt64, _ lane: UInt64) -> UInt64 { (h ^ Self.round(0, lane)) &* Self.p1 &+ Self.p4 }
        var h = rotl(a, 1) &+ rotl(b, 7) &+ rotl(c, 12) &+ rotl(d, 18)
        h = merge(merge(merge(merge(h, a), b), c), d)
        h &+= total
        for byte in remainder {
            h ^= UInt64(byte) &* Self.p5
            h = rotl(h, 11) &* Self.p1
        }
        h ^= h >> 33
        h &*= Self.p2
        h ^= h >> 29
        h &*= Self.p3
        h ^= h >> 32
        return h
    }

    /// The digest of bytes given all at once: the same value as `update` then `finalize`, with
    /// no buffer for the tail (versions are named 100,000 times at the start of a large library).
    static func digest(of bytes: UnsafeRawBufferPointer) -> UInt64 {
        var state = VersionDigest()
        let whole = bytes.count / 32 * 32
        state.total = UInt64(bytes.count)
        state.consumeStripes(bytes, 0, whole)
        return state.finalize(remainder: UnsafeRawBufferPointer(rebasing: bytes[whole...]))
    }

    /// The hash as 16 lowercase hex digits.
    var hex: String { ContentHash.hex(finalize()) }

    /// The digest of some bytes, as 16 hex digits.
    static func hex(of bytes: [UInt8]) -> String {
        var hash = VersionDigest()
        hash.update(bytes)
        return hash.hex
    }
}
