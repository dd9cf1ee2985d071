import Foundation
import XCTest
@testable import Search

/// The search query fuzz target's checks over its seed corpus (Fuzz/search-corpus), and what the
/// hostile seeds come out as.
final class SearchQueryFuzzingTests: XCTestCase {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Fuzz/search-corpus").standardized.path

    func seed(_ name: String) throws -> [UInt8] {
        [UInt8](try XCTUnwrap(FileManager.default.contents(atPath: Self.corpus + "/" + name), name))
    }

    func testEveryCorpusFileHoldsTheFuzzChecks() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.corpus)
        XCTAssertGreaterThanOrEqual(names.count, 10)
        for name in names { try seed(name).withUnsafeBytes { SearchQueryFuzzing.check($0) } }
    }

    func testHostileSeedsAreRefusedOrReadAsPlainWords() throws {
        func refusal(_ name: String) throws -> SearchQueryError? {
            let bytes = try seed(name)
            do throws(SearchQueryError) {
                _ = try SearchQuery.parse(utf8: bytes)
                return nil
            } catch {
                return error
            }
        }
        XCTAssertEqual(try refusal("long-10000"), .tooLong(limit: 200))
        XCTAssertEqual(try refusal("words-1000"), .tooLong(limit: 200), "a thousand words are longer than the length limit first")
        for name in ["nul", "unpaired-surrogate", "lone-low-surrogate", "controls", "overlong-utf8"] {
            XCTAssertEqual(try refusal(name), .malformed, name)
        }
        let syntax = try SearchQuery.parse(utf8: try seed("fts-syntax"))
        XCTAssertEqual(syntax.terms.map(\.text).prefix(4), ["lisbon", "near", "porto", "2"])
        let sql = try SearchQuery.parse(utf8: try seed("sql-fragments"))
        XCTAssertTrue(sql.terms.map(\.text).contains("drop"))
        for term in syntax.terms + sql.terms {
            for match in term.matches { XCTAssertTrue(match.word.allSatisfy { $0.isLetter || $0.isNumber }, match.word) }
        }
    }
}
