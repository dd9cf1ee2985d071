import Foundation
import Imaging
@testable import Library
import SQL
import Synchronization
import XCTest

final class NaturalOrderTests: XCTestCase {
    func testNumbersCompareAsNumbersAndFoldersStayTogether() {
        let names = ["photo10.jpg", "photo2.jpg", "photo02b.jpg", "Photo1.jpg", "a/z.jpg", "a0.jpg", "a.jpg", "photo2.jpg.bak", "b10/1.jpg", "b9/2.jpg"]
        XCTAssertEqual(names.sorted(by: NaturalOrder.less),
                       ["Photo1.jpg", "a/z.jpg", "a.jpg", "a0.jpg", "b9/2.jpg", "b10/1.jpg", "photo2.jpg", "photo2.jpg.bak", "photo02b.jpg", "photo10.jpg"])
        XCTAssertFalse(NaturalOrder.less("x", "x"))
        XCTAssertTrue(NaturalOrder.less("img007", "img7"), "equal numbers: plain byte order decides")
        XCTAssertTrue(NaturalOrder.less("img99999999999999999998", "img99999999999999999999"), "longer than any integer")
    }
}

final class IngestQueueTests: XCTestCase {
    func testViewedPhotosFirstThenSmallestThenOldest() {
        let order = Mutex<[Int]>([])
        let gate = DispatchSemaphore(value: 0)
        let queue = IngestQueue(concurrency: 1, yield: { gate.wait() }, work: { job in order.withLock { $0.append(job.photoID) } })
        var jobs = (1...2_000).map { IngestJob(photoID: $0, version: "v\($0)", pixels: $0 % 7 == 0 ? 100 : 0) }
        jobs.append(IngestJob(photoID: 5_000, version: "big", pixels: 10))
        queue.enqueue(jobs)
        queue.enqueue(IngestJob(photoID: 3, version: "v3", pixels: 0)) // already queued: once
        queue.prioritize(photoID: 1_999, version: "v1999")
        XCTAssertEqual(queue.length, 2_001)
        for _ in 0..<2_001 { gate.signal() }
        XCTAssertTrue(queue.waitUntilIdle(timeoutSeconds: 30))
        let done = order.withLock { $0 }
        XCTAssertEqual(done.count, 2_001)
        XCTAssertEqual(done.first, 1_999, "the photo someone is looking at")
        let rest = Array(done.dropFirst())
        let unknown = (1...2_000).filter { $0 % 7 != 0 && $0 != 1_999 }
        XCTAssertEqual(Array(rest.prefix(unknown.count)), unknown, "size not known yet: in the order queued")
        XCTAssertEqual(rest[unknown.count], 5_000)
        XCTAssertEqual(Array(rest.suffix(from: unknown.count + 1)), (1...2_000).filter { $0 % 7 == 0 })
        queue.stop()
    }

    func testAJobDoneCanBeQueuedAgain() {
        let count = Mutex(0)
        let queue = IngestQueue(concurrency: 2, work: { _ in count.withLock { $0 += 1 } })
        queue.enqueue(IngestJob(photoID: 1, version: "a", pixels: 1))
        XCTAssertTrue(queue.waitUntilIdle(timeoutSeconds: 10))
        queue.enqueue(IngestJob(photoID: 1, version: "a", pixels: 1)) // its pyramid went missing, say
        XCTAssertTrue(queue.waitUntilIdle(timeoutSeconds: 10))
        XCTAssertEqual(count.withLock { $0 }, 2)
        queue.stop()
    }
}

final class CatalogMigrationTests: XCTestCase {
    func testACatalogOfTheFirstSchemaKeepsItsIdsHashesAndVersions() throws {
        let folders = try Folders(self)
        folders.fake("photo1.jpg", 300, 200)
        folders.fake("photo2.jpg", 400, 200)
        let hashes = try ["photo1.jpg", "photo2.jpg"].map { name -> String in
            let bytes = try Data(contentsOf: URL(fileURLWithPath: folders.photos + "/" + name))
            return VersionDigest.hex(of: Array(bytes))
        }
        // The schema before user_version 1, with two rows as the old scan stored them.
        let fingerprints = ["photo1.jpg", "photo2.jpg"].map { Folders.stat(folders.photos + "/" + $0) }
        var sql = """
            CREATE TABLE photos (id INTEGER PRIMARY KEY AUTOINCREMENT, path TEXT NOT NULL UNIQUE, present INTEGER NOT NULL DEFAULT 1,
                size INTEGER NOT NULL DEFAULT 0, modified INTEGER NOT NULL DEFAULT 0, inode INTEGER NOT NULL DEFAULT 0,
                content_hash TEXT NOT NULL DEFAULT '', width INTEGER NOT NULL DEFAULT 0, height INTEGER NOT NULL DEFAULT 0,
                error TEXT, error_version TEXT);
            """
        for (i, name) in ["photo1.jpg", "photo2.jpg"].enumerated() {
            let f = fingerprints[i]
            sql += "INSERT INTO photos (id, path, size, modified, inode, content_hash, width, height) VALUES (\(i * 5 + 3), '\(name)', \(f.size), \(f.modified), \(f.inode), '\(hashes[i])', \(300 + i * 100), 200);"
        }
        let db = try SQLDatabase(.sqlite(path: folders.data + "/catalog.sqlite"))
        try db.withConnection { try $0.execute(sql) }
        db.close()

        let renderer = FakeRenderer()
        let library = try folders.library(renderer: renderer)
        XCTAssertEqual(library.photos.map(\.id), [3, 8])
        XCTAssertEqual(library.catalog.entry(3)?.hashKind, .legacy)
        let versions = library.photos.map(\.version)
        XCTAssertEqual(versions, hashes.map { RenderSettings().version(contentHash: $0) })
        // A touch re-hashes the file: the legacy hash still matches, so nothing changes.
        var times = [timespec(tv_sec: 1_700_000_000, tv_nsec: 0), timespec(tv_sec: 1_700_000_000, tv_nsec: 0)]
        XCTAssertEqual(utimensat(AT_FDCWD, folders.photos + "/photo1.jpg", &times, 0), 0)
        library.refresh()
        XCTAssertEqual(library.photos.map(\.version), versions)
        XCTAssertEqual(library.catalog.entry(3)?.hashKind, .legacy)
        // New photos get the next id after the old ones.
        folders.fake("photo3.jpg", 100, 100)
        library.refresh()
        XCTAssertEqual(library.photos.map(\.id), [3, 8, 9])
        XCTAssertEqual(library.catalog.entry(9)?.hashKind, .xxh3)
    }
}
