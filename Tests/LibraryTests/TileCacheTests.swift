import Foundation
import Imaging
@testable import Library
import Synchronization
import XCTest

final class TileCacheTests: XCTestCase {
    private func key(_ n: Int, _ version: String = "v1") -> TileKey {
        TileKey(version: version, tile: TileCoordinate(z: 0, x: n, y: 0))
    }

    func testByteCapIsRespectedAndLeastRecentlyUsedGoesFirst() {
        let cache = TileCache(capacityBytes: 1000)
        for n in 0..<4 { cache.put(key(n), [UInt8](repeating: UInt8(n), count: 300)) }
        // 4 × 300 > 1000: the oldest went.
        XCTAssertLessThanOrEqual(cache.bytes, 1000)
        XCTAssertEqual(cache.bytes, 900)
        XCTAssertNil(cache.get(key(0)))
        // Touch 1, then add: 2 is now the least recently used.
        XCTAssertEqual(cache.get(key(1))?.bytes.first, 1)
        cache.put(key(4), [UInt8](repeating: 4, count: 300))
        XCTAssertNil(cache.get(key(2)))
        XCTAssertNotNil(cache.get(key(1)))
        XCTAssertNotNil(cache.get(key(3)))
        XCTAssertNotNil(cache.get(key(4)))
        // Too large for the cap: not kept, nothing evicted.
        cache.put(key(9), [UInt8](repeating: 9, count: 1001))
        XCTAssertNil(cache.get(key(9)))
        XCTAssertEqual(cache.count, 3)
    }

    func testAnEntryUsedSinceTheLastScanIsSparedOnceAndOnlyOnce() {
        let cache = TileCache(capacityBytes: 1000)
        for n in 0..<3 { cache.put(key(n), [UInt8](repeating: UInt8(n), count: 300)) }
        // 0 is the oldest but was used: it is moved to the front with its mark cleared, and 1,
        // not used since it was stored, goes instead.
        XCTAssertNotNil(cache.get(key(0)))
        cache.put(key(3), [UInt8](repeating: 3, count: 300))
        XCTAssertNil(cache.get(key(1)))
        XCTAssertEqual(cache.count, 3)
        // Oldest first now: 2, then 0, whose mark the scan cleared.
        cache.put(key(4), [UInt8](repeating: 4, count: 300))
        XCTAssertNil(cache.get(key(2)))
        cache.put(key(5), [UInt8](repeating: 5, count: 300))
        XCTAssertNil(cache.get(key(0)))
        XCTAssertEqual(cache.bytes, 900)
        // Looking up only the stamp marks an entry as used like the other lookups.
        XCTAssertNotNil(cache.lookup(key(3)))
        cache.put(key(6), [UInt8](repeating: 6, count: 300))
        XCTAssertNil(cache.get(key(4)))
        XCTAssertNotNil(cache.get(key(3)))
        XCTAssertNotNil(cache.get(key(5)))
        XCTAssertNotNil(cache.get(key(6)))
    }

    func testHitsAreCountedOnlyWhenAskedAndOnlyForWhatIsReturned() throws {
        let cache = TileCache(capacityBytes: 1000)
        cache.put(key(1), [1, 2, 3])
        XCTAssertNotNil(cache.get(key(1)))
        XCTAssertNil(cache.get(key(2), countingHit: true), "a miss is no hit")
        let image = try XCTUnwrap(cache.get(key(1), countingHit: true))
        XCTAssertNotNil(cache.get(key(1), countingHit: true))
        XCTAssertTrue(cache.holds(image.stamp), "asking after an entry is no hit")
        XCTAssertNotNil(cache.get(key(1), countingHit: true))
        XCTAssertEqual(cache.takeHits(), 3)
        XCTAssertEqual(cache.takeHits(), 0)
    }

    func testManyInsertsNeverExceedTheCap() {
        let cache = TileCache(capacityBytes: 10_000)
        for n in 0..<2000 {
            cache.put(key(n % 300), [UInt8](repeating: 1, count: 50 + n % 977))
            XCTAssertLessThanOrEqual(cache.bytes, 10_000)
        }
        let total = (0..<300).compactMap { cache.get(key($0))?.bytes.count }.reduce(0, +)
        XCTAssertEqual(total, cache.bytes)
    }

    func testRetainVersionsDropsOldVersions() {
        let cache = TileCache(capacityBytes: 10_000)
        cache.put(key(1, "old"), [1, 2, 3])
        cache.put(key(1, "new"), [4, 5])
        cache.retainVersions(["new"])
        XCTAssertNil(cache.get(key(1, "old")))
        XCTAssertEqual(cache.get(key(1, "new"))?.bytes, [4, 5])
        XCTAssertEqual(cache.bytes, 2)
    }

    func testAStampNamesOneEntryUntilItGoes() throws {
        let cache = TileCache(capacityBytes: 1000)
        XCTAssertFalse(cache.holds(ImageStamp(raw: 0)))
        cache.put(key(1), [UInt8](repeating: 1, count: 400))
        let first = try XCTUnwrap(cache.get(key(1)))
        XCTAssertEqual(first.bytes.count, 400)
        XCTAssertEqual(first.version, "v1")
        XCTAssertTrue(cache.holds(first.stamp))
        XCTAssertEqual(cache.get(key(1))?.stamp, first.stamp, "the same entry, the same stamp")
        // Stored again (a re-render): another entry, another stamp.
        cache.put(key(1), [UInt8](repeating: 2, count: 400))
        let second = try XCTUnwrap(cache.get(key(1)))
        XCTAssertNotEqual(second.stamp, first.stamp)
        XCTAssertFalse(cache.holds(first.stamp))
        XCTAssertTrue(cache.holds(second.stamp))
        // Evicted, then stored again: nothing carried over. Used above, it is spared once
        // (key 2 goes first), then goes when it is the oldest again.
        cache.put(key(2), [UInt8](repeating: 3, count: 400))
        cache.put(key(3), [UInt8](repeating: 4, count: 400))
        cache.put(key(4), [UInt8](repeating: 6, count: 400))
        XCTAssertNil(cache.get(key(2)))
        XCTAssertNil(cache.get(key(1)))
        XCTAssertFalse(cache.holds(second.stamp))
        cache.put(key(1), [UInt8](repeating: 5, count: 100))
        let third = try XCTUnwrap(cache.get(key(1)))
        XCTAssertFalse([first.stamp, second.stamp].contains(third.stamp))
        XCTAssertTrue(cache.holds(third.stamp))
    }

    /// The stamps announced to `onDrop` observers, in order.
    private final class Drops: Sendable {
        private let seen = Mutex<[ImageStamp]>([])
        func record(_ stamp: ImageStamp) { seen.withLock { $0.append(stamp) } }
        func take() -> [ImageStamp] { seen.withLock { seen in defer { seen = [] }; return seen } }
    }

    func testALookupHandsOutTheStampAndEveryEntryThatGoesIsAnnounced() throws {
        let cache = TileCache(capacityBytes: 1000)
        let drops = Drops()
        cache.onDrop { drops.record($0) }
        cache.put(key(1), [1, 2, 3])
        let stamp = try XCTUnwrap(cache.lookup(key(1)))
        XCTAssertEqual(cache.image(stamp)?.bytes, [1, 2, 3])
        XCTAssertEqual(cache.image(stamp)?.stamp, stamp)
        XCTAssertEqual(cache.get(key(1))?.stamp, stamp, "the lookup names the entry get hands out")
        XCTAssertNil(cache.lookup(key(2)))
        XCTAssertEqual(drops.take(), [])

        // Stored again: new bytes under a new stamp, the old one announced and naming nothing.
        cache.put(key(1), [4, 5])
        let stored = try XCTUnwrap(cache.lookup(key(1)))
        XCTAssertNotEqual(stored, stamp)
        XCTAssertEqual(drops.take(), [stamp])
        XCTAssertNil(cache.image(stamp))
        XCTAssertEqual(cache.image(stored)?.bytes, [4, 5])

        // Evicted: announced. (Used by the lookups above, 1 is spared by the first eviction and
        // goes at a later one.)
        for n in 2...9 { cache.put(key(n), [UInt8](repeating: UInt8(n), count: 300)) }
        XCTAssertNil(cache.lookup(key(1)))
        let evicted = drops.take()
        XCTAssertTrue(evicted.contains(stored))
        XCTAssertEqual(evicted.count, 8 - cache.count + 1, "each entry that went, once")
        XCTAssertTrue(evicted.allSatisfy { cache.image($0) == nil && !cache.holds($0) })

        // A slot is reused by a later entry, under another stamp.
        let held = (2...9).compactMap { cache.lookup(key($0)) }
        XCTAssertEqual(held.count, cache.count)
        XCTAssertEqual(Set(held.map(\.slot)).count, held.count, "no two entries held at once share a slot")
        XCTAssertTrue(held.allSatisfy { $0.slot < 4 }, "slots are reused: a few for a few entries")
        XCTAssertTrue(evicted.allSatisfy { !held.contains($0) })

        // Dropped after a rescan: every entry of a version that went is announced.
        cache.retainVersions([])
        XCTAssertEqual(Set(drops.take()), Set(held))
        XCTAssertEqual(cache.count, 0)
    }

    func testTileKeysHashLikeTheyCompare() {
        var keys: [TileKey] = []
        for version in ["a", "abcdefgh", "abcdefghi", "48d7749cdf84", "48d7749cdf85", "a-much-longer-version-than-inline"] {
            for z in 0..<4 { for x in 0..<20 { for y in 0..<20 { keys.append(TileKey(version: version, tile: TileCoordinate(z: z, x: x, y: y))) } } }
            keys.append(TileKey(version: version, tile: nil))
            keys.append(TileKey(version: version, rendition: "r1"))
            keys.append(TileKey(version: version, rendition: "r2"))
        }
        // Equal keys hash alike (a copy of the version string is another string with the same bytes).
        for key in keys.prefix(50) {
            let copy = TileKey(version: String(decoding: Array(key.version.utf8), as: UTF8.self), tile: key.tile)
            XCTAssertEqual(copy._rawHashValue(seed: 7), key._rawHashValue(seed: 7))
            XCTAssertEqual(copy.hashValue, key.hashValue)
        }
        // Distinct keys, versions differing in one byte or past the first eight included, hash apart.
        XCTAssertEqual(Set(keys.map { $0._rawHashValue(seed: 7) }).count, keys.count)
        XCTAssertNotEqual(keys[0]._rawHashValue(seed: 7), keys[0]._rawHashValue(seed: 8), "the seed is part of the hash")
        var index: [TileKey: Int] = [:]
        for (n, key) in keys.enumerated() { index[key] = n }
        XCTAssertEqual(index.count, keys.count)
        for (n, key) in keys.enumerated() { XCTAssertEqual(index[key], n) }
    }

    /// Renditions are kept only up to 1/256 of the cap: a burst of large ones neither pushes
    /// out the tiles nor keeps its memory.
    func testLargeRenditionsAreNotKept() throws {
        let cache = TileCache(capacityBytes: 256 << 20)
        let small = TileKey(version: "v1", rendition: "0,0,10,10/10,10/0/color.jpeg")
        let large = TileKey(version: "v1", rendition: "0,0,5000,5000/5000,5000/0/color.png")
        XCTAssertEqual(try cache.fill(small) { [UInt8](repeating: 1, count: 1 << 20) }.count, 1 << 20)
        XCTAssertEqual(try cache.fill(large) { [UInt8](repeating: 2, count: (1 << 20) + 1) }.count, (1 << 20) + 1, "answered all the same")
        XCTAssertNotNil(cache.get(small))
        XCTAssertNil(cache.get(large))
        XCTAssertTrue(cache.admits(TileKey(version: "v1", tile: TileCoordinate(z: 0, x: 0, y: 0)), byteCount: 2 << 20), "tiles of any size fit")
    }

    func testThePolicyTable() {
        struct Row {
            let cap: Int
            /// `p<n>:<bytes>` stores tile n, `g<n>` uses it, `r<version>` keeps only that version,
            /// `q<n>:<bytes>` stores tile n of version v2.
            let steps: [String]
            let kept: [String]
            let line: UInt
        }
        let rows = [
            Row(cap: 0, steps: ["p1:1"], kept: [], line: #line),
            Row(cap: 10, steps: ["p1:10"], kept: ["v1/1"], line: #line),
            Row(cap: 10, steps: ["p1:11"], kept: [], line: #line),
            Row(cap: 10, steps: ["p1:5", "p2:5", "p3:5"], kept: ["v1/2", "v1/3"], line: #line),
            Row(cap: 10, steps: ["p1:5", "p2:5", "g1", "p3:5"], kept: ["v1/1", "v1/3"], line: #line),
            Row(cap: 10, steps: ["p1:5", "p2:5", "g1", "g2", "p3:5"], kept: ["v1/2", "v1/3"], line: #line),
            Row(cap: 10, steps: ["p1:4", "p2:4", "p3:9"], kept: ["v1/3"], line: #line),
            Row(cap: 10, steps: ["p1:4", "p1:6", "p2:4"], kept: ["v1/1", "v1/2"], line: #line),
            Row(cap: 10, steps: ["p1:4", "q1:4", "rv2"], kept: ["v2/1"], line: #line),
            Row(cap: 10, steps: ["p1:4", "q1:4", "rv3"], kept: [], line: #line),
            Row(cap: 10, steps: ["p1:4", "q2:4", "rv1"], kept: ["v1/1"], line: #line),
        ]
        for row in rows {
            let cache = TileCache(capacityBytes: row.cap)
            var seen: Set<TileKey> = []
            for step in row.steps {
                let kind = step.first!
                let rest = step.dropFirst()
                let parts = rest.split(separator: ":").map(String.init)
                switch kind {
                case "p", "q":
                    let k = key(Int(parts[0])!, kind == "p" ? "v1" : "v2")
                    seen.insert(k)
                    cache.put(k, [UInt8](repeating: 0, count: Int(parts[1])!))
                case "g": _ = cache.get(key(Int(parts[0])!))
                case "r": cache.retainVersions([String(rest)])
                default: XCTFail("unknown step \(step)")
                }
            }
            let kept = seen.filter { cache.get($0) != nil }.map { "\($0.version)/\($0.tile!.x)" }.sorted()
            XCTAssertEqual(kept, row.kept, "cap \(row.cap): \(row.steps)", line: row.line)
            XCTAssertEqual(cache.bytes, seen.compactMap { cache.get($0)?.bytes.count }.reduce(0, +), line: row.line)
            XCTAssertEqual(cache.keepsImages, row.cap > 0, line: row.line)
        }
        XCTAssertTrue(TileCache.outlives("v1", current: ["v1", "v2"]))
        XCTAssertFalse(TileCache.outlives("v0", current: ["v1"]))
    }

    func testConcurrentFillsOfOneKeyLoadItOnce() throws {
        let cache = TileCache(capacityBytes: 1000)
        let loads = Mutex(0)
        let first = key(1)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            let bytes = try? cache.fill(first) {
                loads.withLock { $0 += 1 }
                Thread.sleep(forTimeInterval: 0.1)
                return [7, 7]
            }
            XCTAssertEqual(bytes, [7, 7])
        }
        XCTAssertEqual(loads.withLock { $0 }, 1)
        XCTAssertEqual(try cache.fill(key(1)) { XCTFail("a hit loads nothing"); return [] }, [7, 7])
        // Too large to keep: handed back, not kept, loaded again next time.
        let small = TileCache(capacityBytes: 1)
        XCTAssertEqual(try small.fill(key(2)) { [1, 2, 3] }, [1, 2, 3])
        XCTAssertNil(small.get(key(2)))
    }

    func testZeroCapacityKeepsNothing() {
        let cache = TileCache(capacityBytes: 0)
        cache.put(key(1), [1])
        XCTAssertNil(cache.get(key(1)))
    }
}
