import Foundation
import Imaging
@testable import Library
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
        XCTAssertEqual(cache.get(key(1))?.first, 1)
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
        // Looking up only the attachment marks an entry as used like the other lookups.
        cache.attach(Note("x"), to: key(3))
        XCTAssertNotNil(cache.attachment(key(3)))
        cache.put(key(6), [UInt8](repeating: 6, count: 300))
        XCTAssertNil(cache.get(key(4)))
        XCTAssertNotNil(cache.get(key(3)))
        XCTAssertNotNil(cache.get(key(5)))
        XCTAssertNotNil(cache.get(key(6)))
    }

    func testHitsAreCountedOnlyWhenAskedAndOnlyForWhatIsReturned() {
        let cache = TileCache(capacityBytes: 1000)
        cache.put(key(1), [1, 2, 3])
        XCTAssertNotNil(cache.get(key(1)))
        XCTAssertNil(cache.get(key(2), countingHit: true), "a miss is no hit")
        XCTAssertNotNil(cache.get(key(1), countingHit: true))
        XCTAssertNotNil(cache.entry(key(1), countingHit: true))
        XCTAssertNil(cache.attachment(key(1), countingHit: true), "nothing attached: nothing returned, no hit")
        cache.attach(Note("a"), to: key(1))
        XCTAssertNotNil(cache.attachment(key(1), countingHit: true))
        XCTAssertEqual(cache.takeHits(), 3)
        XCTAssertEqual(cache.takeHits(), 0)
    }

    func testManyInsertsNeverExceedTheCap() {
        let cache = TileCache(capacityBytes: 10_000)
        for n in 0..<2000 {
            cache.put(key(n % 300), [UInt8](repeating: 1, count: 50 + n % 977))
            XCTAssertLessThanOrEqual(cache.bytes, 10_000)
        }
        let total = (0..<300).compactMap { cache.get(key($0))?.count }.reduce(0, +)
        XCTAssertEqual(total, cache.bytes)
    }

    func testRetainVersionsDropsOldVersions() {
        let cache = TileCache(capacityBytes: 10_000)
        cache.put(key(1, "old"), [1, 2, 3])
        cache.put(key(1, "new"), [4, 5])
        cache.retainVersions(["new"])
        XCTAssertNil(cache.get(key(1, "old")))
        XCTAssertEqual(cache.get(key(1, "new")), [4, 5])
        XCTAssertEqual(cache.bytes, 2)
    }

    private final class Note: Sendable {
        let text: String
        init(_ text: String) { self.text = text }
    }

    func testAttachmentStaysWithItsEntryUntilTheEntryGoes() throws {
        let cache = TileCache(capacityBytes: 1000)
        cache.attach(Note("nobody"), to: key(1))
        XCTAssertNil(cache.entry(key(1)), "attaching to a missing key stores nothing")
        cache.put(key(1), [UInt8](repeating: 1, count: 400))
        let first = try XCTUnwrap(cache.entry(key(1)))
        XCTAssertNil(first.attachment)
        XCTAssertEqual(first.entityTag, key(1).entityTag)
        XCTAssertEqual(first.bytes.count, 400)
        cache.attach(Note("headers"), to: key(1))
        XCTAssertEqual((cache.entry(key(1))?.attachment as? Note)?.text, "headers")
        // Stored again (a re-render): the old attachment goes with the old entry.
        cache.put(key(1), [UInt8](repeating: 2, count: 400))
        XCTAssertNil(cache.entry(key(1))?.attachment)
        cache.attach(Note("again"), to: key(1))
        // Evicted, then stored again: nothing carried over. Used above, it is spared once
        // (key 2 goes first), then goes when it is the oldest again.
        cache.put(key(2), [UInt8](repeating: 3, count: 400))
        cache.put(key(3), [UInt8](repeating: 4, count: 400))
        cache.put(key(4), [UInt8](repeating: 6, count: 400))
        XCTAssertNil(cache.get(key(2)))
        XCTAssertNil(cache.entry(key(1)))
        cache.put(key(1), [UInt8](repeating: 5, count: 100))
        XCTAssertNil(cache.entry(key(1))?.attachment)
    }

    func testZeroCapacityKeepsNothing() {
        let cache = TileCache(capacityBytes: 0)
        cache.put(key(1), [1])
        XCTAssertNil(cache.get(key(1)))
    }
}
