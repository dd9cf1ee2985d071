@testable import App
import Dispatch
import Foundation
import Glibc
@testable import Library
import Observability
import SQL
import SearchIndex
import Synchronization
import TestSupport
import XCTest

/// The index's thread: what it works out for requests, and at which priority.
final class SearchIndexerTests: XCTestCase {
    /// The calling thread's nice value (Linux keeps one per thread).
    private static var nice: Int32 { getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) }

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
        let indexer = SearchIndexer(index: try SQLSearchIndex(database: database), library: library, comments: { _ in [] },
                                    places: PlaceNames(folder: URL(fileURLWithPath: root + "/no-places"), logger: .disabled),
                                    logger: .disabled)
        addTeardownBlock {
            indexer.stop()
            database.close()
            library.stop()
            library.waitForIngest(timeoutSeconds: 60)
            try? FileManager.default.removeItem(atPath: root)
        }
        library.refresh()
        let nices = Mutex<[Int32]>([])
        let ran = DispatchSemaphore(value: 0)
        indexer.whenIdle {
            nices.withLock { $0.append(Self.nice) }
            ran.signal()
        }
        indexer.start(commentStore: nil)
        XCTAssertEqual(ran.wait(timeout: .now() + 60), .success, "the work before the fill")
        XCTAssertEqual(ran.wait(timeout: .now() + 60), .success, "the work once the fill is written and nothing came for a second")
        let seen = nices.withLock { $0 }
        XCTAssertEqual(seen.first, Self.nice, "no vocabulary is kept yet, so requests wait for the first: it runs at theirs")
        XCTAssertEqual(seen.last, 10, "then the index's thread makes way for requests")
    }
}
