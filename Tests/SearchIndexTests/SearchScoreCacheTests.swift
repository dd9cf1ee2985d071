import Search
import XCTest
@testable import SearchIndex

final class SearchScoreCacheTests: XCTestCase {
    func testKeepsTheLastAskedUnderTheNewestGeneration() throws {
        let cache = SearchScoreCache(capacity: 2)
        let (a, b, c) = try (SearchQuery.parse("a"), SearchQuery.parse("b"), SearchQuery.parse("c"))
        let answer = [SearchScore(photoID: 1, score: 2)]
        cache.keep(answer, for: a, at: 5)
        XCTAssertEqual(cache.scores(for: a, at: 5), answer)
        XCTAssertNil(cache.scores(for: a, at: 6), "another generation")
        cache.keep(answer, for: b, at: 5)
        XCTAssertEqual(cache.scores(for: a, at: 5), answer)  // a asked last
        cache.keep(answer, for: c, at: 5)
        XCTAssertNil(cache.scores(for: b, at: 5), "the least recently asked is dropped")
        XCTAssertEqual(cache.scores(for: a, at: 5), answer)
        cache.keep(answer, for: b, at: 4)
        XCTAssertNil(cache.scores(for: b, at: 4), "read under an older generation: not kept")
        XCTAssertEqual(cache.scores(for: a, at: 5), answer)
        cache.keep(answer, for: b, at: 6)
        XCTAssertNil(cache.scores(for: a, at: 6), "a newer generation drops the older answers")
        XCTAssertEqual(cache.scores(for: b, at: 6), answer)
    }
}
