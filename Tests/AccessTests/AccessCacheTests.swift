import Synchronization
import XCTest
@testable import Access

/// What the access cache does when one kind of entry is full: the expired entries go first, and
/// only if that frees too little does everything of that kind go.
final class AccessCacheTests: XCTestCase {
    /// A clock the test moves by hand.
    final class Clock: Sendable {
        let seconds = Mutex(0.0)
        var now: @Sendable () -> Double { { self.seconds.withLock { $0 } } }
    }

    func key() throws -> TokenKey { try XCTUnwrap(TokenKey(try AccessToken.make())) }

    func share(_ id: Int) -> Share {
        Share(id: id, token: "t\(id)", target: .album(1), createdBy: 1, createdAt: 0, expiresAt: nil, passwordHash: nil,
              download: false, comments: false, location: false, upload: false)
    }

    func keepSession(_ cache: AccessCache, _ key: TokenKey, remaining: Double) {
        cache.keep(key, digest: "\(key)", user: nil, shareID: nil, endsAt: 0, remaining: remaining, since: cache.epoch)
    }

    func testAFullSessionCacheDropsOnlyTheExpiredWhenThatFreesEnough() throws {
        try assertTheExpiredGoWhenANewcomerComes(remaining: 60)
    }

    /// Three sessions of 10 s and one of 60 s fill the cache; at 20 s a newcomer with `remaining`
    /// to live comes: the three expired go, the lasting one and the newcomer stay.
    func assertTheExpiredGoWhenANewcomerComes(remaining: Double, file: StaticString = #filePath, line: UInt = #line) throws {
        let clock = Clock()
        let cache = AccessCache(seconds: 60, capacity: 4, now: clock.now)
        cache.startHearing()
        let lasting = try key()
        for _ in 0..<3 { keepSession(cache, try key(), remaining: 10) }
        keepSession(cache, lasting, remaining: 60)
        clock.seconds.withLock { $0 = 20 }
        let newcomer = try key()
        keepSession(cache, newcomer, remaining: remaining)
        XCTAssertEqual(cache.count.sessions, 2, file: file, line: line)
        XCTAssertNotNil(cache.session(lasting), file: file, line: line)
        XCTAssertNotNil(cache.session(newcomer), file: file, line: line)
    }

    func testAFullSessionCacheOfLiveEntriesIsEmptiedForTheNewcomer() throws {
        let clock = Clock()
        let cache = AccessCache(seconds: 60, capacity: 4, now: clock.now)
        cache.startHearing()
        let first = try key()
        keepSession(cache, first, remaining: 60)
        for _ in 0..<3 { keepSession(cache, try key(), remaining: 60) }
        let newcomer = try key()
        keepSession(cache, newcomer, remaining: 60)
        XCTAssertEqual(cache.count.sessions, 1)
        XCTAssertNil(cache.session(first))
        XCTAssertNotNil(cache.session(newcomer))
    }

    func testAFullShareCacheDropsOnlyTheExpiredWhenThatFreesEnough() throws {
        let clock = Clock()
        let cache = AccessCache(seconds: 60, capacity: 4, now: clock.now)
        cache.startHearing()
        let lasting = try key()
        for id in 1...3 { cache.keep(try key(), share: share(id), remaining: 10, since: cache.epoch) }
        cache.keep(lasting, share: share(4), remaining: 60, since: cache.epoch)
        clock.seconds.withLock { $0 = 20 }
        cache.keep(try key(), share: share(5), remaining: 60, since: cache.epoch)
        XCTAssertEqual(cache.count.shares, 2)
        XCTAssertEqual(cache.share(lasting)?.id, 4)
    }

    func testAFullShareCacheOfLiveEntriesIsEmptiedForTheNewcomer() throws {
        let clock = Clock()
        let cache = AccessCache(seconds: 60, capacity: 4, now: clock.now)
        cache.startHearing()
        let first = try key()
        for id in 1...4 { cache.keep(id == 1 ? first : try key(), share: share(id), remaining: 60, since: cache.epoch) }
        cache.keep(try key(), share: share(5), remaining: 60, since: cache.epoch)
        XCTAssertEqual(cache.count.shares, 1)
        XCTAssertNil(cache.share(first))
    }

    /// The newcomer's own short life does not move what counts as expired: entries that ended
    /// before now go, whatever the newcomer has left.
    func testAShortLivedNewcomerStillClearsTheExpired() throws {
        try assertTheExpiredGoWhenANewcomerComes(remaining: 5)
    }
}
