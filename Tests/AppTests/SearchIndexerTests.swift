@testable import App
import Dispatch
import Foundation
import Glibc
@testable import Library
import Observability
import SQL
import SQLTesting
import Search
@testable import SearchIndex
import Synchronization
import TestSupport
import XCTest

/// The index's thread: what it works out for requests, and at which priority.
final class SearchIndexerTests: XCTestCase {
    /// The calling thread's nice value (Linux keeps one per thread).
    private static var nice: Int32 { getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) }

    /// An indexer writing to `index` what `library` holds (no comments, no place tables), started
    /// once `prepare` has had it, and stopped when the test ends: before what the test's earlier
    /// teardown blocks close, as XCTest runs them last first.
    @discardableResult
    private func startIndexer(_ index: SQLSearchIndex, library: PhotoLibrary, root: String,
                              prepare: (SearchIndexer) -> Void = { _ in }) -> SearchIndexer {
        let indexer = SearchIndexer(index: index, library: library, comments: { _ in [] },
                                    places: PlaceNames(folder: URL(fileURLWithPath: root + "/no-places"), logger: .disabled),
                                    logger: .disabled)
        addTeardownBlock { indexer.stop() }
        prepare(indexer)
        indexer.start(commentStore: nil)
        return indexer
    }

    func testTheFirstWorkForRequestsRunsAtTheirPriorityAndLaterWorkAtNiceTen() throws {
        try XCTSkipIf(Self.nice >= 10, "the tests run at nice 10 or more: the two priorities are one")
        let root = NSTemporaryDirectory() + "search-indexer-\(UUID().uuidString)"
        let photos = root + "/photos"
        try FileManager.default.createDirectory(atPath: photos + "/lisboa", withIntermediateDirectories: true)
        for i in 1...3 { ScratchFile.write("400x300\n\(i)", to: "\(photos)/lisboa/img\(i).jpg") }
        let library = try PhotoLibrary(
            configuration: LibraryConfiguration(photosDirectory: photos, dataDirectory: root + "/data", ingestConcurrency: 1,
                                                rescanSeconds: 0, watchesFolder: false),
            renderer: TextRenderer(), logger: .disabled, metrics: MetricsRegistry())
        let database = try SQLDatabase(.sqlite(path: root + "/search.sqlite"))
        addTeardownBlock {
            database.close()
            library.stop()
            library.waitForIngest(timeoutSeconds: 60)
            try? FileManager.default.removeItem(atPath: root)
        }
        library.refresh()
        let nices = Mutex<[Int32]>([])
        let ran = DispatchSemaphore(value: 0)
        startIndexer(try SQLSearchIndex(database: database), library: library, root: root) { indexer in
            indexer.whenIdle {
                nices.withLock { $0.append(Self.nice) }
                ran.signal()
            }
        }
        XCTAssertEqual(ran.wait(timeout: .now() + 60), .success, "the work before the fill")
        XCTAssertEqual(ran.wait(timeout: .now() + 60), .success, "the work once the fill is written and nothing came for a second")
        let seen = nices.withLock { $0 }
        XCTAssertEqual(seen.first, Self.nice, "no vocabulary is kept yet, so requests wait for the first: it runs at theirs")
        XCTAssertEqual(seen.last, 10, "then the index's thread makes way for requests")
    }

    /// On PostgreSQL, postings left behind by a replica of an earlier build (words written alone,
    /// the generation moved) are built again by the index's thread once it is idle, here at a
    /// start whose fill has nothing to write: searches answer the same before (from the words)
    /// and after (from the postings), and the earlier build's words are in the postings.
    func testTheIdleIndexRebuildsPostingsAnEarlierBuildLeftBehind() throws {
        let place = try SQLTestDatabase.postgres()
        let root = NSTemporaryDirectory() + "search-indexer-\(UUID().uuidString)"
        let photos = root + "/photos"
        for folder in ["lisboa", "porto"] {
            try FileManager.default.createDirectory(atPath: photos + "/" + folder, withIntermediateDirectories: true)
            for i in 1...3 { ScratchFile.write("400x300\n\(folder)\(i)", to: "\(photos)/\(folder)/img\(i).jpg") }
        }
        let library = try PhotoLibrary(
            configuration: LibraryConfiguration(photosDirectory: photos, dataDirectory: root + "/data", ingestConcurrency: 1,
                                                rescanSeconds: 0, watchesFolder: false),
            renderer: TextRenderer(), logger: .disabled, metrics: MetricsRegistry())
        let database = try place.open()
        let index = try SQLSearchIndex(database: database)
        addTeardownBlock {
            database.close()
            place.remove()
            library.stop()
            library.waitForIngest(timeoutSeconds: 60)
            try? FileManager.default.removeItem(atPath: root)
        }
        library.refresh()
        let postingsWhole = { () throws -> Bool in
            let state = try database.integers("SELECT g.n, b.n FROM search_generation g, search_postings_built b")
            return state.count == 2 && state[0] == state[1]
        }
        let queries = try ["lisboa", "porto", "img", "img2", "porto img3", "madeira", "lisboa madeira"].map { try SearchQuery.parse($0) }
        // Asked of an index of their own each time: one keeps its answers while the generation
        // stays, and the rebuild does not move it.
        let answers = { () throws -> [[SearchScore]] in
            let reader = try SQLSearchIndex(database: database)
            return try queries.map { try reader.scores($0) }
        }

        // A first run fills the index, keeping the postings.
        let first = startIndexer(index, library: library, root: root)
        XCTAssertTrue(eventually(timeout: 60) { library.isReady && !first.isPartial }, "the first fill")
        first.waitUntilIdle()
        first.stop()
        XCTAssertTrue(try postingsWhole())
        let lisboa = try XCTUnwrap(index.scores(queries[0]).first?.photoID)
        XCTAssertEqual(try index.scores(queries[0]).count, 3)

        // A replica of an earlier build rewrites a photo's words without the postings.
        try database.transaction { tx in
            try tx.run("UPDATE search_generation SET n = n + 1")
            try tx.run("""
                UPDATE search_photos SET words = words || array_to_tsvector(ARRAY['amadeira'])
                WHERE photo_id = \(lisboa)
                """)
        }
        XCTAssertFalse(try postingsWhole())
        let before = try answers()
        XCTAssertEqual(before[5].map(\.photoID), [lisboa], "read from the words")

        // The next start has nothing to fill: the postings are built again once it is idle.
        startIndexer(index, library: library, root: root)
        XCTAssertTrue(try eventually(timeout: 60) { try postingsWhole() }, "the idle index rebuilds the postings")
        XCTAssertEqual(try answers(), before, "the same answers, now from the postings")
        XCTAssertEqual(try index.postingScores(queries[5]).map(\.photoID), [lisboa], "the earlier build's word is in the postings")
    }

    func testTheNextBatchIsTheLowestQueuedIDsInOrder() {
        XCTAssertEqual(SearchIndexer.lowest(3, of: []), [])
        XCTAssertEqual(SearchIndexer.lowest(3, of: [9, 2]), [2, 9])
        XCTAssertEqual(SearchIndexer.lowest(0, of: [9, 2]), [])
        var generator = SystemRandomNumberGenerator()
        for size in [1, 63, 64, 65, 1000, 20000] {
            let ids = Set((0..<size).map { _ in Int.random(in: 1...200_000, using: &generator) })
            XCTAssertEqual(SearchIndexer.lowest(64, of: ids), Array(ids.sorted().prefix(64)), "\(size) queued")
        }
        XCTAssertEqual(SearchIndexer.lowest(64, of: Set(1...100_000)), Array(1...64))
    }
}
