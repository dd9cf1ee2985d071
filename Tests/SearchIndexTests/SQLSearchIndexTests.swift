import SQL
import SQLTesting
import Search
import XCTest
@testable import SearchIndex

/// The same queries asked of SQLite's FTS5 and PostgreSQL's tsvector index over the same
/// photos, which must give the same photos.
final class SQLSearchIndexTests: XCTestCase {
    static func document(path: String, date: (Int, Int, Int)? = nil, camera: [String] = [], place: Place? = nil,
                         comments: [String] = []) -> SearchDocument {
        var document = SearchDocument()
        document.addPath(path)
        if let date { document.addDate(year: date.0, month: date.1, day: date.2) }
        for text in camera { document.add(text, to: .camera) }
        if let place { document.addPlace(place) }
        for text in comments { document.add(text, to: .comment) }
        return document
    }

    static let photos: [(photoID: Int, document: SearchDocument)] = [
        (1, document(path: "Trips/Lisboa/IMG_0001.jpg", date: (2019, 7, 14), camera: ["FUJIFILM", "X100V"],
                     place: Place(city: "Lisbon", region: "Lisbon", country: "Portugal", countryCode: "PT"))),
        (2, document(path: "Trips/Brazil/DSC_2019.jpg", date: (2021, 3, 2), camera: ["SONY", "ILCE-7M3", "FE 35mm F1.8"],
                     place: Place(city: "São Paulo", region: "São Paulo", country: "Brazil", countryCode: "BR"),
                     comments: ["Dinner near the café"])),
        (3, document(path: "scans/20190.tif", comments: ["July \"party\" -- NEAR the sea*"])),
        (4, document(path: "2019/garden.jpg", date: (2018, 12, 31))),
    ]

    func each(_ body: (SQLSearchIndex, String) throws -> Void) throws {
        try SQLTestDatabase.forEachEngine { place in
            let database = try place.open()
            defer { database.close() }
            let index = try SQLSearchIndex(database: database)
            try index.write(Self.photos)
            try body(index, place.engine.rawValue)
        }
    }

    func ids(_ index: SQLSearchIndex, _ typed: String, fields: Set<SearchField> = Set(SearchField.allCases)) throws -> [Int] {
        try index.matches(SearchQuery.parse(typed).limited(to: fields)).map(\.photoID)
    }

    func testSameAnswersOnBothEngines() throws {
        let table: [(query: String, ids: [Int], line: UInt)] = [
            ("sao paulo", [2], #line),
            ("SÃO", [2], #line),
            ("lisb", [1], #line),                        // place and folder
            ("portugal lisboa", [1], #line),
            ("2019", [1, 2, 4], #line),                  // date of 1; whole words of 2's file and 4's folder; not 3's 20190
            ("201", [1, 2, 3, 4], #line),                // a prefix is not a year
            ("july 2019", [1], #line),
            ("july", [1, 3], #line),                     // 3's comment says July
            ("jul", [1, 3], #line),
            ("2019-07-14", [1], #line),
            ("2018-12-31", [4], #line),
            ("x100v", [1], #line),
            ("fujifilm", [1], #line),
            ("ilce-7m3", [2], #line),
            ("35mm", [2], #line),
            ("cafe", [2], #line),
            ("\"party\"", [3], #line),
            ("sea*", [3], #line),
            ("near", [2, 3], #line),
            ("the NEAR sea", [3], #line),
            ("a:b", [], #line),
            ("') OR 1=1 --", [], #line),
            ("lisbon brazil", [], #line),
            ("", [], #line),
        ]
        try each { index, engine in
            for row in table {
                XCTAssertEqual(try ids(index, row.query), row.ids, "\(engine): \(row.query)", line: row.line)
            }
        }
    }

    func testFieldsLeftOut() throws {
        try each { index, engine in
            let noPlaces = Set(SearchField.allCases).subtracting([.place])
            XCTAssertEqual(try ids(index, "portugal", fields: noPlaces), [], engine)
            XCTAssertEqual(try ids(index, "lisb", fields: noPlaces), [1], "\(engine): the folder still")
            let noComments = Set(SearchField.allCases).subtracting([.comment])
            XCTAssertEqual(try ids(index, "cafe", fields: noComments), [], engine)
            XCTAssertEqual(try ids(index, "july", fields: noComments), [1], engine)
        }
    }

    func testRewriteAndRemove() throws {
        try each { index, engine in
            try index.write([(3, Self.document(path: "scans/lisbon.tif"))])
            XCTAssertEqual(try ids(index, "lisb"), [1, 3], engine)
            XCTAssertEqual(try ids(index, "party"), [], "\(engine): the old words are gone")
            try index.remove([1, 3])
            XCTAssertEqual(try ids(index, "lisb"), [], engine)
            XCTAssertEqual(try index.photoIDs(), [2, 4], engine)
        }
    }

    func testScoresAreTheRankingOfTheMatches() throws {
        let typed = ["sao paulo", "lisb", "2019", "201", "2019-07-14", "lisb 2019-07-14", "july", "jul", "near", "cafe", "x100v", "35mm", "the NEAR sea", "a:b", "", "lisbon brazil"]
        let leftOut: [Set<SearchField>] = [Set(SearchField.allCases), Set(SearchField.allCases).subtracting([.place, .comment])]
        try each { index, engine in
            for text in typed {
                for fields in leftOut {
                    let query = try SearchQuery.parse(text).limited(to: fields)
                    let expected = try index.matches(query).map { SearchScore(photoID: $0.photoID, score: SearchRanking.score(query, words: $0.words)) }
                    XCTAssertEqual(try index.scores(query), expected.filter { $0.score > 0 }, "\(engine): \(text)")
                }
            }
            XCTAssertEqual(try index.scores(SearchQuery.parse("lisb")), [SearchScore(photoID: 1, score: 3)], "\(engine): a prefix of a place")
        }
    }

    func testScoresComeByIDWhateverOrderTheRowsWereWrittenIn() throws {
        try SQLTestDatabase.forEachEngine { place in
            let database = try place.open()
            defer { database.close() }
            let index = try SQLSearchIndex(database: database)
            // Written last id first, then the first rewritten: PostgreSQL's table holds them in
            // neither id order nor the order written.
            for id in stride(from: 40, through: 10, by: -1) { try index.write([(id, Self.document(path: "walks/lisbon-\(id).jpg"))]) }
            try index.write([(25, Self.document(path: "walks/lisbon-25.jpg", comments: ["lisbon again"]))])
            let found = try index.scores(SearchQuery.parse("lisbon"))
            XCTAssertEqual(found.map(\.photoID), Array(10...40), place.engine.rawValue)
            XCTAssertEqual(found.first { $0.photoID == 25 }?.score, 4, "\(place.engine): a name's whole word outranks a comment's")
        }
    }

    func testAnAnswerIsGivenAgainOnlyUntilAnyProcessWritesTheIndex() throws {
        try SQLTestDatabase.forEachEngine { place in
            let first = try place.open(), second = try place.open()
            defer { first.close(); second.close() }
            let asking = try SQLSearchIndex(database: first)
            let writing = try SQLSearchIndex(database: second)  // another replica
            let lisbon = try SearchQuery.parse("lisbon")
            let engine = place.engine.rawValue
            try writing.write([(1, Self.document(path: "walks/lisbon-1.jpg"))])
            XCTAssertEqual(try asking.scores(lisbon).map(\.photoID), [1], engine)
            // Kept: a row changed behind the index's back (no write of its own) is not seen.
            _ = try second.run("DELETE FROM search_photos")
            if place.engine == .postgres { _ = try second.run("DELETE FROM search_postings") }
            XCTAssertEqual(try asking.scores(lisbon).map(\.photoID), [1], "\(engine): the answer kept")
            try writing.write([(2, Self.document(path: "walks/lisbon-2.jpg"))])
            XCTAssertEqual(try asking.scores(lisbon).map(\.photoID), [2], "\(engine): another process wrote")
            try writing.write([(3, Self.document(path: "walks/lisbon-3.jpg"))])
            XCTAssertEqual(try asking.scores(lisbon).map(\.photoID), [2, 3], engine)
            try writing.remove([2])
            XCTAssertEqual(try asking.scores(lisbon).map(\.photoID), [3], "\(engine): another process removed")
            try asking.write([(3, Self.document(path: "walks/porto-3.jpg"))])
            XCTAssertEqual(try asking.scores(lisbon), [], "\(engine): this process wrote")
        }
    }

    func testCompactingKeepsEveryAnswer() throws {
        try each { index, engine in
            // More transactions, so more pieces for compacting to merge.
            for id in 10..<40 { try index.write([(id, Self.document(path: "walks/lisbon-\(id).jpg"))]) }
            let queries = try ["lisb", "sao paulo", "2019", "walks", "x100v", "jul"].map { try SearchQuery.parse($0) }
            let before = try queries.map { try index.scores($0) }
            try index.compact()
            XCTAssertEqual(try queries.map { try index.scores($0) }, before, engine)
            XCTAssertEqual(try index.scores(SearchQuery.parse("walks")).count, 30, engine)
        }
    }

    func testHitsCarryTheWordsForRanking() throws {
        try each { index, engine in
            let query = try SearchQuery.parse("lisb")
            let hit = try XCTUnwrap(index.matches(query).first, engine)
            // In the order written on SQLite, in the tsvector's order on PostgreSQL.
            XCTAssertEqual(hit.words.mapValues(Set.init),
                           Self.photos[0].document.words.merging([.comment: [], .album: []]) { a, _ in a }.mapValues(Set.init), engine)
        }
    }

    func testUpgradingKeepsTheWordsWritten() throws {
        try SQLTestDatabase.forEachEngine { place in
            let database = try place.open()
            defer { database.close() }
            let engine = place.engine.rawValue
            try database.migrate(SQLSchema(name: SearchSchema.schema.name, migrations: Array(SearchSchema.schema.migrations.prefix(2))))
            // A photo as the second step's table held it.
            if place.engine == .sqlite {
                try database.run("""
                    INSERT INTO search_photos (rowid, place, date, camera, comment, name, album)
                    VALUES (7, '', '', 'fujifilm x100v', '', 'walks lisbon', '')
                    """)
            } else {
                try database.run("""
                    INSERT INTO search_photos (photo_id, place, date, camera, comment, name, album, words)
                    VALUES (7, '', '', 'fujifilm x100v', '', 'walks lisbon', '',
                            array_to_tsvector(ARRAY['cfujifilm', 'cx100v', 'nwalks', 'nlisbon']))
                    """)
            }
            let index = try SQLSearchIndex(database: database)
            XCTAssertEqual(try index.scores(SearchQuery.parse("fujifilm lisb")), [SearchScore(photoID: 7, score: 6 + 2)], engine)
            try index.write([(8, Self.document(path: "walks/lisbon-8.jpg"))])
            XCTAssertEqual(try index.scores(SearchQuery.parse("walks")).map(\.photoID), [7, 8], engine)
            if place.engine == .postgres {
                let texts: SQLQuery = "SELECT count(*) FROM search_photos WHERE place IS NOT NULL OR name IS NOT NULL"
                XCTAssertEqual(try database.scalar(texts, as: Int.self), 0, "\(engine): the words alone")
                // A replica of the earlier build, during a rolling update, still writes the texts.
                try database.run("""
                    INSERT INTO search_photos (photo_id, place, date, camera, comment, name, album, words)
                    VALUES (9, '', '', '', '', 'walks', '', array_to_tsvector(ARRAY['nwalks']))
                    """)
                try database.run("UPDATE search_generation SET n = n + 1")
                XCTAssertEqual(try index.scores(SearchQuery.parse("walks")).map(\.photoID), [7, 8, 9], engine)
            }
        }
    }

    func testPostgreSQLLeavesARowWhoseWordsAreTheSame() throws {
        try SQLTestDatabase.forEachEngine { place in
            guard place.engine == .postgres else { return }
            let database = try place.open()
            defer { database.close() }
            let index = try SQLSearchIndex(database: database)
            let row: SQLQuery = "SELECT ctid::text FROM search_photos WHERE photo_id = 1"
            try index.write([Self.photos[0]])
            let written = try database.scalar(row, as: String.self)
            try index.write([Self.photos[0]])
            XCTAssertEqual(try database.scalar(row, as: String.self), written, "the same words: the row as it was")
            try index.write([(1, Self.document(path: "walks/porto.jpg"))])
            XCTAssertNotEqual(try database.scalar(row, as: String.self), written, "new words: a new row")
            XCTAssertEqual(try index.scores(SearchQuery.parse("porto")).map(\.photoID), [1])
        }
    }
}
