import Foundation
@testable import Library
import SQL
import SQLTesting
import Synchronization
import XCTest

/// Behaviour every `CatalogStore` must have; each test runs against the memory store and the SQL
/// store on SQLite and on PostgreSQL.
final class CatalogStoreBehaviourTests: XCTestCase {
    /// Runs `body` once per store, each fresh and empty: memory, then SQLite, then PostgreSQL
    /// (skipped, after the others ran, when PostgreSQL is not installed). `reopen` opens the same
    /// catalog again, as a second process would (nil for memory).
    private func forEachStore(_ body: (_ store: any CatalogStore, _ reopen: (() throws -> any CatalogStore)?, _ name: String) throws -> Void) throws {
        try body(MemoryCatalogStore(), nil, "memory")
        try SQLTestDatabase.forEachEngine { place in
            let store = try SQLCatalogStore(database: try place.open(), ownsDatabase: true)
            try body(store, { try SQLCatalogStore(database: try place.open(), ownsDatabase: true) }, place.engine.rawValue)
        }
    }

    private func entry(_ path: String, present: Bool = true, hash: String = "00ff00ff00ff00ff") -> CatalogEntry {
        CatalogEntry(path: path, present: present,
                     fingerprint: FileFingerprint(size: 5_000_000_000, modified: 1_764_590_000_123_456_789, inode: 9_007_199_254_740_993),
                     contentHash: hash, hashKind: .xxh3, hashed: true, width: 6000, height: 4000)
    }

    func testInsertedRowsComeBackWholeInIDOrderWithIncreasingIDs() throws {
        try forEachStore { store, reopen, name in
            var failed = entry("b/failed.jpg")
            failed.error = "not a JPEG"
            failed.errorVersion = "abcdefabcdef"
            failed.hashKind = .legacy
            var missing = entry("c/gone.jpg", present: false)
            missing.missingSince = 1_764_590_111_000_000_000
            missing.hashed = false
            let ids = try store.insert([entry("a/one.jpg"), failed, missing])
            XCTAssertEqual(ids.count, 3, name)
            XCTAssertEqual(ids, ids.sorted(), name)
            XCTAssertEqual(Set(ids).count, 3, name)
            var expected = [entry("a/one.jpg"), failed, missing]
            for i in expected.indices { expected[i].id = ids[i] }
            XCTAssertEqual(try store.entries(), expected, name)
            if let reopen {
                XCTAssertEqual(try reopen().entries(), expected, "another process reads the same rows (\(name))")
            }
            XCTAssertEqual(try store.insert([]), [], name)
            let later = try store.insert(entry("d/later.jpg"))
            XCTAssertGreaterThan(later, ids.max()!, name)
        }
    }

    func testDetailsAndAlbumsComeBackAsStored() throws {
        try forEachStore { store, reopen, name in
            var taken = entry("2024/03/one.jpg")
            taken.taken = "2024-03-05T14:22:01+01:00"
            taken.takenSource = "exif"
            taken.details = #"{"make":"Apple","model":"iPhone 15 Pro","lens":"24 mm ƒ1.8 — ünïcode"}"#
            let id = try store.insert(taken)
            taken.id = id
            XCTAssertEqual(try store.entries(), [taken], name)
            taken.details = nil
            taken.takenSource = "file"
            try store.update(taken)
            XCTAssertEqual(try (reopen?() ?? store).entries(), [taken], "updated and read by another process (\(name))")

            let albums = try store.saveAlbums([AlbumRow(path: "2024/03"), AlbumRow(path: "Trips/Ålesund")])
            XCTAssertEqual(albums.count, 2, name)
            XCTAssertEqual(albums, albums.sorted(), name)
            XCTAssertEqual(Set(albums).count, 2, name)
            // A renamed folder keeps its album's id.
            XCTAssertEqual(try store.saveAlbums([AlbumRow(id: albums[1], path: "Trips/Alesund 2024")]), [albums[1]], name)
            let later = try store.saveAlbums([AlbumRow(path: "2024/04")])
            XCTAssertGreaterThan(later[0], albums.max()!, name)
            XCTAssertEqual(try (reopen?() ?? store).albums(),
                           [AlbumRow(id: albums[0], path: "2024/03"), AlbumRow(id: albums[1], path: "Trips/Alesund 2024"),
                            AlbumRow(id: later[0], path: "2024/04")], name)
            XCTAssertEqual(try store.saveAlbums([]), [], name)
        }
    }

    func testAPresentPathAddedAgainKeepsItsIDButARemovedOneMayShareItsPath() throws {
        try forEachStore { store, reopen, name in
            let first = try store.insert(entry("same.jpg"))
            // Another process (or this one, a moment later) adds the same file: same id.
            let other = try reopen?() ?? store
            XCTAssertEqual(try other.insert([entry("same.jpg"), entry("new.jpg")]).first, first, name)
            // The photo goes away; a different file then appears at its path: a new row.
            var gone = try store.entries().first { $0.id == first }!
            gone.present = false
            gone.missingSince = 1
            try store.update(gone)
            let second = try store.insert(entry("same.jpg", hash: "1111222233334444"))
            XCTAssertNotEqual(second, first, name)
            let rows = try store.entries().filter { $0.path == "same.jpg" }
            XCTAssertEqual(rows.map(\.present), [false, true], name)
            XCTAssertEqual(rows.map(\.contentHash), ["00ff00ff00ff00ff", "1111222233334444"], name)
        }
    }

    func testUpdateOverwritesEveryFieldOfTheNamedRowsOnly() throws {
        try forEachStore { store, _, name in
            let ids = try store.insert([entry("x.jpg"), entry("y.jpg")])
            var moved = try store.entries()[0]
            moved.path = "moved/x.jpg"
            moved.fingerprint = FileFingerprint(size: 7, modified: 8, inode: 9)
            moved.contentHash = "aaaabbbbccccdddd"
            moved.hashKind = .legacy
            moved.hashed = false
            moved.width = 1
            moved.height = 2
            moved.error = "broken"
            moved.errorVersion = "000000000000"
            moved.missingSince = 42
            try store.update([moved])
            let rows = try store.entries()
            XCTAssertEqual(rows[0], moved, name)
            XCTAssertEqual(rows[1].id, ids[1], name)
            XCTAssertEqual(rows[1].path, "y.jpg", name)
            // And back to nothing in the optional fields.
            moved.error = nil
            moved.errorVersion = nil
            moved.missingSince = nil
            try store.update(moved)
            XCTAssertEqual(try store.entries()[0], moved, name)
        }
    }

    func testTwoProcessesAddingTheSameFilesAtOnceAgreeOnTheirIDs() throws {
        try SQLTestDatabase.forEachEngine { place in
            let stores = try (0..<2).map { _ in try SQLCatalogStore(database: try place.open(), ownsDatabase: true) }
            let paths = (0..<200).map { "photo-\($0).jpg" }
            let answers = Mutex<[[Int]]>([[], []])
            let entries = Dictionary(uniqueKeysWithValues: paths.map { ($0, entry($0)) })
            DispatchQueue.concurrentPerform(iterations: 2) { i in
                // In batches, as scans insert, in the opposite order on each side.
                var ids: [String: Int] = [:]
                let ordered = i == 0 ? paths : paths.reversed()
                for start in stride(from: 0, to: ordered.count, by: 25) {
                    let batch = Array(ordered[start..<min(start + 25, ordered.count)])
                    let got = (try? stores[i].insert(batch.map { entries[$0]! })) ?? []
                    for (path, id) in zip(batch, got) { ids[path] = id }
                }
                answers.withLock { $0[i] = paths.map { ids[$0] ?? -1 } }
            }
            let both = answers.withLock { $0 }
            XCTAssertEqual(both[0], both[1], place.engine.rawValue)
            XCTAssertFalse(both[0].contains(-1), place.engine.rawValue)
            XCTAssertEqual(try stores[0].entries().count, 200, place.engine.rawValue)
        }
    }

    func testACatalogOfTheFirstStepIsMigratedKeepingItsRowsAndLaterOpensRunNothing() throws {
        try SQLTestDatabase.forEachEngine { place in
            let name = place.engine.rawValue
            let database = try place.open()
            defer { database.close() }
            // A database at step 1 only, with a row as it was stored then.
            let first = SQLSchema(name: CatalogSchema.schema.name, migrations: [CatalogSchema.schema.migrations[0]])
            try database.migrate(first)
            try database.run("INSERT INTO photos (path, size, modified, inode, content_hash, width, height) VALUES ('old.jpg', 10, 20, 30, 'cafecafecafecafe', 40, 50)")
            let store = try SQLCatalogStore(database: database)
            let rows = try store.entries()
            XCTAssertEqual(rows.count, 1, name)
            XCTAssertEqual(rows[0].path, "old.jpg", name)
            XCTAssertEqual(rows[0].hashKind, .legacy, "hashes from before xxHash are the legacy kind (\(name))")
            XCTAssertTrue(rows[0].hashed, name)
            XCTAssertNil(rows[0].missingSince, name)
            XCTAssertEqual(rows[0].fingerprint, FileFingerprint(size: 10, modified: 20, inode: 30), name)
            // New rows get the current kind by default, and a removed row's path can be reused.
            XCTAssertEqual(try database.scalar("SELECT MAX(version) FROM schema_migrations WHERE schema_name = 'catalog'", as: Int.self),
                           CatalogSchema.latestVersion, name)
            let again = try database.migrate(CatalogSchema.schema)
            XCTAssertEqual(again.applied, [], name)
            XCTAssertEqual(again.to, CatalogSchema.latestVersion, name)
        }
    }
}
