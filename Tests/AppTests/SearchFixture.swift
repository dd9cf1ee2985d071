import Foundation
@testable import App
import XCTest

extension XCTestCase {
    /// The access fixture's library (folder "trip": a1, a2; "home": b1; the root: r1; all taken
    /// 2024-05-01 near London) with its search index written, places read from a one-city table
    /// in the `placeNames` folder; `showLocation` for the library.
    func searchFixture(showLocation: Bool = false) throws -> AccessFixture {
        let places = NSTemporaryDirectory() + "places-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: places, withIntermediateDirectories: true)
        let london = ["1", "London", "London", "", "51.50853", "-0.12574", "P", "PPLC", "GB", "", "ENG",
                      "", "", "", "8961989", "", "25", "Europe/London", "2024-01-01"].joined(separator: "\t") + "\n"
        try Data(london.utf8).write(to: URL(fileURLWithPath: places + "/cities15000.txt"))
        try Data("GB.ENG\tEngland\tEngland\t1\n".utf8).write(to: URL(fileURLWithPath: places + "/admin1CodesASCII.txt"))
        addTeardownBlock { try? FileManager.default.removeItem(atPath: places) }
        let f = try AccessFixture(ready: true) {
            $0.showLocation = showLocation
            $0.placeNames = places
        }
        // The fixture starts no services: the indexer's start is the search service's.
        f.application.search.start(commentStore: f.application.comments.store)
        f.application.search.waitUntilIdle()
        return f
    }
}
