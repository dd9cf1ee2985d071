import Foundation
import XCTest
@testable import Comments

/// `createdAt` as RFC 3339 UTC text, counted from the civil calendar: whole seconds, rounded
/// down, leap days and the years before 1970 included.
final class CommentTimestampTests: XCTestCase {
    func testTimestampsAreUTCToTheSecond() {
        let cases: [(Double, String)] = [
            (0, "1970-01-01T00:00:00Z"),
            (-1, "1969-12-31T23:59:59Z"),
            (-0.5, "1969-12-31T23:59:59Z"),
            (951_829_323.9, "2000-02-29T13:02:03Z"),
            (1_780_000_000, "2026-05-28T20:26:40Z"),
            (4_102_444_799, "2099-12-31T23:59:59Z"),
            (-2_208_988_800, "1900-01-01T00:00:00Z"),
        ]
        for (seconds, text) in cases {
            XCTAssertEqual(Comment.timestamp(Date(timeIntervalSince1970: seconds)), text, "\(seconds)")
        }
    }
}
