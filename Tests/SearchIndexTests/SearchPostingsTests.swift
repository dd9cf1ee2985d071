import SQL
import SQLTesting
import Search
import XCTest
@testable import SearchIndex

/// PostgreSQL's postings: their format, and that a query read from them answers what the words
/// say (the ranking of every matching row's words, as `SQLSearchIndexTests` defines it) after
/// writes, rewrites and removals, after an upgrade, and after a replica of an earlier build wrote
/// words alone.
final class SearchPostingsTests: XCTestCase {
    func testListsAndBitmaps() {
        let list = Array(stride(from: 0, to: 4096, by: 16)).dropLast()  // 255 photos
        XCTAssertEqual(list.count, 255)
        XCTAssertEqual(SearchPostings.encode(Array(list)).count, 510, "a list: two bytes a photo")
        XCTAssertEqual(SearchPostings.decode(SearchPostings.encode(Array(list))), Array(list))
        XCTAssertEqual(SearchPostings.encode([1, 258, 4095]), [0, 1, 1, 2, 0x0f, 0xff], "big-endian, as int2send")
        let bitmap = Array(list) + [4095]
        XCTAssertEqual(SearchPostings.encode(bitmap).count, 512, "256 photos: a bitmap")
        XCTAssertEqual(SearchPostings.decode(SearchPostings.encode(bitmap)), bitmap)
        let bits = SearchPostings.encode(Array(0..<255) + [265])
        XCTAssertEqual(bits[0], 0xff)
        XCTAssertEqual(bits[33], 0x40, "265 is the second bit of byte 33, first bit the highest, as varbit_send")
        XCTAssertEqual(SearchPostings.place(8195).chunk, 2)
        XCTAssertEqual(SearchPostings.place(8195).offset, 3)
    }

    /// Photos over four chunks: two across a chunk's edge, 300 in one (a bitmap for their common
    /// words) and the cross-engine tests' four.
    static let photos: [(photoID: Int, document: SearchDocument)] = {
        typealias Tests = SQLSearchIndexTests
        var photos = Tests.photos
        for id in [4095, 4096, 4097] {
            photos.append((id, Tests.document(path: "walks/lisbon-\(id).jpg", date: (2019, 7, 1), comments: ["fujifilm again \(id)"])))
        }
        for id in 8192..<8492 {
            photos.append((id, Tests.document(path: "crowd/img-\(id).jpg", date: (2020 + id % 3, 1 + id % 12, 2),
                                              camera: id % 3 == 0 ? ["FUJIFILM", "X100V"] : ["SONY", "ILCE-7M3"],
                                              comments: id % 7 == 0 ? ["crowd at the julyfest"] : [])))
        }
        photos.append((20000, Tests.document(path: "far/away.jpg", camera: ["FUJIFILM"],
                                             place: Place(city: "São Paulo", region: "São Paulo", country: "Brazil", countryCode: "BR"))))
        return photos
    }()

    static let typed = ["sao paulo", "SÃO", "lisb", "lisbon", "portugal lisboa", "2019", "201", "july 2019", "july", "jul",
                        "2019-07-14", "x100v", "fujifilm", "fuj", "ilce-7m3", "35mm", "cafe", "near", "the NEAR sea", "crowd",
                        "crowd fuj", "img", "walks lisb", "again 4096", "a", "l", "2021 jan", "lisbon brazil", "zzz"]
    static let fieldSets: [Set<SearchField>] = [Set(SearchField.allCases), Set(SearchField.allCases).subtracting([.place, .comment]),
                                                Set(SearchField.allCases).subtracting([.album])]

    func postgres(_ body: (SQLDatabase, SQLSearchIndex) throws -> Void) throws {
        let place = try SQLTestDatabase.postgres()
        defer { place.remove() }
        let database = try place.open()
        defer { database.close() }
        try body(database, try SQLSearchIndex(database: database))
    }

    /// Every query of `typed` in every field set: the postings' answer is the ranking of the
    /// matching rows' words, and the GIN index's; returns how many answers held photos.
    @discardableResult
    func assertPostingsAnswerAsTheWords(_ index: SQLSearchIndex, _ label: String, line: UInt = #line) throws -> Int {
        var answered = 0
        for text in Self.typed {
            for fields in Self.fieldSets {
                let query = try SearchQuery.parse(text).limited(to: fields)
                let expected = try index.matches(query).map { SearchScore(photoID: $0.photoID, score: SearchRanking.score(query, words: $0.words)) }
                    .filter { $0.score > 0 }
                XCTAssertEqual(try index.postingScores(query), expected, "\(label): \(text) in \(fields.count) fields", line: line)
                XCTAssertEqual(try index.ranked(query), expected, "\(label): \(text), the words' index", line: line)
                if !expected.isEmpty { answered += 1 }
            }
        }
        return answered
    }

    func postingsAreWhole(_ database: SQLDatabase) throws -> Bool {
        let state = try database.integers(SQLSearchIndex.postingsState)
        return state.count == 2 && state[0] == state[1]
    }

    func testPostingsAnswerAsTheWordsThroughWritesAndRemovals() throws {
        try postgres { database, index in
            for start in stride(from: 0, to: Self.photos.count, by: 64) {
                try index.write(Array(Self.photos[start..<min(start + 64, Self.photos.count)]))
            }
            XCTAssertTrue(try postingsAreWhole(database))
            XCTAssertGreaterThan(try assertPostingsAnswerAsTheWords(index, "written"), 40)
            let bitmaps: SQLQuery = "SELECT count(*) FROM search_postings WHERE length(ids) = 512"
            XCTAssertGreaterThan(try database.scalar(bitmaps, as: Int.self) ?? 0, 0, "the crowd's common words")

            // New words for some (the crowd's first 60 lose their camera), the same for others.
            var rewritten: [(photoID: Int, document: SearchDocument)] = (8192..<8252).map { id in
                (id, SQLSearchIndexTests.document(path: "crowd/renamed-\(id).jpg"))
            }
            rewritten.append((3, SQLSearchIndexTests.document(path: "scans/lisbon.tif")))
            rewritten.append(Self.photos[0])
            try index.write(rewritten)
            try assertPostingsAnswerAsTheWords(index, "rewritten")
            XCTAssertEqual(try index.scores(SearchQuery.parse("party")), [], "3's old words are gone")

            // Removed: a chunk's last photos, and enough of the crowd to take it under a bitmap.
            try index.remove([4096, 4097, 2] + Array(8300..<8492))
            XCTAssertTrue(try postingsAreWhole(database))
            try assertPostingsAnswerAsTheWords(index, "removed")
            XCTAssertEqual(try database.scalar("SELECT count(*) FROM search_postings WHERE chunk = 1", as: Int.self), 0,
                           "an emptied row is deleted")
            XCTAssertEqual(try database.scalar(bitmaps, as: Int.self), 0, "fewer than 256 photos a word: lists")
            XCTAssertEqual(try index.scores(SearchQuery.parse("walks")).map(\.photoID), [4095])
        }
    }

    func testUpgradingFromStep3BuildsThePostings() throws {
        let place = try SQLTestDatabase.postgres()
        defer { place.remove() }
        let database = try place.open()
        defer { database.close() }
        try database.migrate(SQLSchema(name: SearchSchema.schema.name, migrations: Array(SearchSchema.schema.migrations.prefix(3))))
        // The photos as step 3's build wrote them: words alone, and the generation moved.
        for (id, document) in Self.photos {
            let words = PostgresArrayLiteral.text(SQLSearchIndex.taggedWords(document))
            try database.run("INSERT INTO search_photos (photo_id, words) VALUES (\(id), array_to_tsvector(\(words)::text[]))")
        }
        try database.run("UPDATE search_generation SET n = n + 7")
        let index = try SQLSearchIndex(database: database)
        XCTAssertTrue(try postingsAreWhole(database), "built at the upgrade's generation")
        XCTAssertGreaterThan(try assertPostingsAnswerAsTheWords(index, "upgraded"), 40)
        // Built in SQL, each row as this process writes it.
        let crowd = try XCTUnwrap(database.scalar("SELECT ids FROM search_postings WHERE term = 'ncrowd' AND chunk = 2", as: [UInt8].self))
        XCTAssertEqual(crowd, SearchPostings.encode(Array(0..<300)))
        let fujifilm = try XCTUnwrap(database.scalar("SELECT ids FROM search_postings WHERE term = 'mfujifilm' AND chunk = 0", as: [UInt8].self))
        XCTAssertEqual(fujifilm, SearchPostings.encode([4095]))
        // Kept from there by this build's writes.
        try index.write([(4095, SQLSearchIndexTests.document(path: "walks/porto.jpg"))])
        XCTAssertTrue(try postingsAreWhole(database))
        try assertPostingsAnswerAsTheWords(index, "written after the upgrade")
    }

    func testAnEarlierBuildsWritesAreSearchedThroughTheWordsUntilThePostingsAreRebuilt() throws {
        try postgres { database, index in
            try index.write(Self.photos)
            XCTAssertFalse(try index.rebuildPostingsIfBehind(), "whole: nothing to do")
            // A replica of step 3's build, during a rolling update: words alone, the generation moved.
            try database.transaction { tx in
                try tx.run("UPDATE search_generation SET n = n + 1")
                try tx.run("""
                    INSERT INTO search_photos (photo_id, words) VALUES (9000, array_to_tsvector(ARRAY['nwalks', 'nmadeira']))
                    ON CONFLICT (photo_id) DO UPDATE SET words = excluded.words
                    """)
                try tx.run("DELETE FROM search_photos WHERE photo_id = 4096")
            }
            XCTAssertFalse(try postingsAreWhole(database))
            XCTAssertEqual(try index.scores(SearchQuery.parse("walks")).map(\.photoID), [4095, 4097, 9000], "read from the words")
            // This build's writes leave the postings behind too: they would not know what the other wrote.
            try index.write([(9001, SQLSearchIndexTests.document(path: "walks/madeira.jpg"))])
            XCTAssertFalse(try postingsAreWhole(database))
            XCTAssertEqual(try index.scores(SearchQuery.parse("madeira")).map(\.photoID), [9000, 9001])
            XCTAssertTrue(try index.rebuildPostingsIfBehind())
            XCTAssertTrue(try postingsAreWhole(database))
            XCTAssertEqual(try index.postingScores(SearchQuery.parse("walks")).map(\.photoID), [4095, 4097, 9000, 9001])
            try assertPostingsAnswerAsTheWords(index, "rebuilt")
            XCTAssertFalse(try index.rebuildPostingsIfBehind())
            try index.remove([9000])
            XCTAssertTrue(try postingsAreWhole(database), "kept again by this build's writes")
            XCTAssertEqual(try index.scores(SearchQuery.parse("madeira")).map(\.photoID), [9001])
        }
    }

    func testPostingsWithoutTheirMarkerAreRebuilt() throws {
        try postgres { database, index in
            try index.write(Self.photos)
            try database.run("DELETE FROM search_postings_built")
            try index.write([(9001, SQLSearchIndexTests.document(path: "walks/madeira.jpg"))])
            XCTAssertFalse(try postingsAreWhole(database))
            XCTAssertEqual(try index.scores(SearchQuery.parse("madeira")).map(\.photoID), [9001], "read from the words")
            XCTAssertTrue(try index.rebuildPostingsIfBehind())
            XCTAssertTrue(try postingsAreWhole(database))
            XCTAssertEqual(try database.scalar("SELECT count(*) FROM search_postings_built", as: Int.self), 1)
            XCTAssertEqual(try index.postingScores(SearchQuery.parse("madeira")).map(\.photoID), [9001])
            try assertPostingsAnswerAsTheWords(index, "rebuilt without a marker")
            XCTAssertFalse(try index.rebuildPostingsIfBehind())
            try index.remove([9001])
            XCTAssertTrue(try postingsAreWhole(database), "kept again by this build's writes")
        }
    }
}
