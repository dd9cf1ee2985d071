@testable import App
import Dispatch
import Foundation
@testable import Library
import Observability
import Search
import Synchronization
import TestSupport
import XCTest

/// The suggestions' vocabulary as the photos change: kept while nothing a suggestion depends on
/// moved, and never waited for while another thread builds it.
final class PhotoSuggestionsTests: XCTestCase {
    private static func folders(_ vocabulary: SuggestionVocabulary, _ typed: String) -> [String] {
        vocabulary.suggestions(for: typed, kinds: [.folder]).map(\.text)
    }

    func testARequestGetsTheKeptVocabularyWhileAnotherThreadBuildsTheNextOne() throws {
        let root = NSTemporaryDirectory() + "photo-suggestions-\(UUID().uuidString)"
        let photos = root + "/photos"
        for (folder, count) in [("lisboa", 3), ("paris", 2)] {
            try FileManager.default.createDirectory(atPath: photos + "/" + folder, withIntermediateDirectories: true)
            for i in 1...count { ScratchFile.write("400x300\n\(folder)\(i)", to: "\(photos)/\(folder)/img\(i).jpg") }
        }
        let library = try PhotoLibrary(
            configuration: LibraryConfiguration(photosDirectory: photos, dataDirectory: root + "/data", ingestConcurrency: 1,
                                                rescanSeconds: 0, watchesFolder: false),
            renderer: TextRenderer(), logger: .disabled, metrics: MetricsRegistry())
        addTeardownBlock {
            library.stop()
            library.waitForIngest(timeoutSeconds: 60)
            try? FileManager.default.removeItem(atPath: root)
        }
        library.refresh()
        let suggestions = PhotoSuggestions(library: library, places: PlaceNames(folder: URL(fileURLWithPath: root + "/no-places"),
                                                                                 logger: .disabled))
        XCTAssertEqual(Self.folders(suggestions.vocabulary, "p"), ["paris"])

        try FileManager.default.createDirectory(atPath: photos + "/porto", withIntermediateDirectories: true)
        ScratchFile.write("400x300\nporto", to: photos + "/porto/img1.jpg")
        library.refresh()

        // Another thread is building: the asker gets the vocabulary kept, without waiting.
        let asked = DispatchSemaphore(value: 0)
        let answer = Mutex<[String]?>(nil)
        suggestions.building.withLock { _ in
            Thread.detachNewThread {
                let found = Self.folders(suggestions.vocabulary, "p")
                answer.withLock { $0 = found }
                asked.signal()
            }
            XCTAssertEqual(asked.wait(timeout: .now() + 60), .success, "the asker waited for the build under way")
        }
        XCTAssertEqual(answer.withLock { $0 }, ["paris"], "the vocabulary kept, a change behind")
        XCTAssertEqual(Set(Self.folders(suggestions.vocabulary, "p")), ["paris", "porto"], "the next asker builds the new one")
    }
}
