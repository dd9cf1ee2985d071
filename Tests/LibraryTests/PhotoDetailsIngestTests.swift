import Foundation
@testable import Imaging
@testable import Library
import SQL
import TestSupport
import XCTest

/// What a photo's header says, read at ingest from files whose EXIF libvips wrote in the test,
/// kept in the catalog, and read for photos catalogued before (no pyramid rebuilt).
final class PhotoDetailsIngestTests: XCTestCase {
    /// Counts pyramid builds of the real renderer.
    // @unchecked Sendable: the counters are guarded by `lock`.
    final class CountingRenderer: PhotoRendering, @unchecked Sendable {
        let real = VipsPhotoRendering(settings: RenderSettings())
        private let lock = NSLock()
        private var _builds = 0
        private var _headers = 0
        var builds: Int { lock.withLock { _builds } }
        var headers: Int { lock.withLock { _headers } }

        func probe(_ path: PhotoSource) throws -> PhotoSize { try real.probe(path) }
        func buildPyramid(source: PhotoSource, into directory: String) throws -> TilePyramid {
            lock.withLock { _builds += 1 }
            return try real.buildPyramid(source: source, into: directory)
        }
        func renderTile(source: PhotoSource, tile: TileCoordinate) throws -> [UInt8] { try real.renderTile(source: source, tile: tile) }
        func thumbnail(source: PhotoSource) throws -> [UInt8] { try real.thumbnail(source: source) }
        func tilePath(in directory: String, _ tile: TileCoordinate) -> String { real.tilePath(in: directory, tile) }
        func renderRegion(source: PhotoSource, pyramidDirectory: String?, pyramid: TilePyramid, _ rendition: RegionRendition) throws -> [UInt8] {
            try real.renderRegion(source: source, pyramidDirectory: pyramidDirectory, pyramid: pyramid, rendition)
        }
        func metadata(_ path: PhotoSource) throws -> PhotoMetadata? {
            lock.withLock { _headers += 1 }
            return try real.metadata(path)
        }
    }

    /// A 64×48 JPEG with these EXIF fields, written by libvips.
    func photo(_ folders: Folders, _ name: String, _ exif: [String: String], seed: Int = 1) throws {
        try folders.real(name, 64, 48, seed: seed)
        let path = folders.photos + "/" + name
        let image = try VipsImage.open(path, access: .random).withFields(strings: exif)
        let staged = folders.data + "/staged-" + (name as NSString).lastPathComponent
        try image.save(to: staged)
        XCTAssertEqual(rename(staged, path), 0)
    }

    static let camera = [
        "exif-ifd0-Make": "Apple", "exif-ifd0-Model": "iPhone 15 Pro",
        "exif-ifd2-LensModel": "iPhone 15 Pro back camera 6.86mm f/1.78",
        "exif-ifd2-DateTimeOriginal": "2024:03:05 14:22:01", "exif-ifd2-OffsetTimeOriginal": "+01:00",
        "exif-ifd2-FNumber": "9/5", "exif-ifd2-ExposureTime": "1/120", "exif-ifd2-ISOSpeedRatings": "80",
        "exif-ifd2-FocalLength": "686/100", "exif-ifd2-FocalLengthIn35mmFilm": "24", "exif-ifd2-Flash": "16",
        "exif-ifd3-GPSLatitudeRef": "N", "exif-ifd3-GPSLatitude": "48/1 51/1 2406/100",
        "exif-ifd3-GPSLongitudeRef": "E", "exif-ifd3-GPSLongitude": "2/1 17/1 4000/100",
    ]

    func details(_ photo: Photo?) throws -> [String: Any] {
        let text = try XCTUnwrap(photo?.details)
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    func testEveryFieldIsReadAtIngestAndTheLibraryIsInDateTakenOrder() throws {
        let folders = try Folders(self)
        try photo(folders, "a-camera.jpg", Self.camera, seed: 1)
        // Tokyo at 09:00 and Lisbon at 08:00 on the same day: by the clock, Lisbon first.
        try photo(folders, "b-tokyo.jpg", ["exif-ifd2-DateTimeOriginal": "2023:06:01 09:00:00",
                                           "exif-ifd2-OffsetTimeOriginal": "+09:00"], seed: 2)
        try photo(folders, "c-lisbon.jpg", ["exif-ifd2-DateTimeOriginal": "2023:06:01 08:00:00",
                                            "exif-ifd2-OffsetTimeOriginal": "+01:00"], seed: 3)
        try photo(folders, "d-no-zone.jpg", ["exif-ifd2-DateTimeOriginal": "2022:01:02 03:04:05"], seed: 4)
        try photo(folders, "e-garbage.jpg", ["exif-ifd2-DateTimeOriginal": "9999:99:99 99:99:99",
                                             "exif-ifd0-Model": String(repeating: "x", count: 5_000)], seed: 5)
        try folders.real("f-plain.jpg", 80, 60, seed: 6)
        var times = [timespec(tv_sec: 1_500_000_000, tv_nsec: 0), timespec(tv_sec: 1_500_000_000, tv_nsec: 0)]
        for name in ["e-garbage.jpg", "f-plain.jpg"] { XCTAssertEqual(utimensat(AT_FDCWD, folders.photos + "/" + name, &times, 0), 0) }
        let renderer = CountingRenderer()
        let library = try folders.library(renderer: renderer)
        library.refresh()
        let byName = Dictionary(uniqueKeysWithValues: library.photos.map { ($0.title, $0) })

        let camera = try XCTUnwrap(byName["a-camera"])
        XCTAssertEqual(camera.taken, "2024-03-05T14:22:01+01:00")
        XCTAssertEqual(camera.takenSource, .exif)
        let d = try details(camera)
        XCTAssertEqual(d["make"] as? String, "Apple")
        XCTAssertEqual(d["model"] as? String, "iPhone 15 Pro")
        XCTAssertEqual(d["lens"] as? String, "iPhone 15 Pro back camera 6.86mm f/1.78")
        XCTAssertEqual(d["aperture"] as? Double, 1.8)
        XCTAssertEqual(d["exposureTime"] as? Double ?? 0, 1.0 / 120, accuracy: 1e-12)
        XCTAssertEqual(d["iso"] as? Int, 80)
        XCTAssertEqual(d["focalLength"] as? Double, 6.86)
        XCTAssertEqual(d["focalLength35mm"] as? Int, 24)
        XCTAssertEqual(d["flash"] as? Bool, false)
        XCTAssertEqual(d["takenFrom"] as? String, "exif")
        XCTAssertEqual(d["mediaType"] as? String, "image/jpeg")
        XCTAssertEqual(d["width"] as? Int, 64)
        let location = try XCTUnwrap(d["location"] as? [String: Double])
        XCTAssertEqual(location["latitude"] ?? 0, 48 + 51.0 / 60 + 24.06 / 3600, accuracy: 1e-9)
        XCTAssertEqual(location["longitude"] ?? 0, 2 + 17.0 / 60 + 40.0 / 3600, accuracy: 1e-9)
        XCTAssertFalse(PhotoDetails.served(try XCTUnwrap(camera.details), fileName: "x", showLocation: false).contains("location"))
        XCTAssertTrue(PhotoDetails.served(try XCTUnwrap(camera.details), fileName: "x", showLocation: true).contains("\"latitude\":48.8"))

        XCTAssertEqual(byName["b-tokyo"]?.taken, "2023-06-01T09:00:00+09:00")
        XCTAssertEqual(byName["d-no-zone"]?.taken, "2022-01-02T03:04:05", "no offset: the clock reading alone")
        let garbage = try XCTUnwrap(byName["e-garbage"])
        XCTAssertNotEqual(garbage.status, .failed, "broken metadata never fails the photo")
        XCTAssertEqual(garbage.takenSource, .file)
        XCTAssertEqual(garbage.taken, "2017-07-14T02:40:00Z")
        XCTAssertNil(try details(garbage)["model"], "a 5,000-character model is dropped")
        XCTAssertEqual(byName["f-plain"]?.takenSource, .file)
        XCTAssertEqual(try details(byName["f-plain"])["width"] as? Int, 80)

        let order = try XCTUnwrap(library.catalog.ordered(.taken)).photos.map(\.title)
        XCTAssertEqual(order, ["e-garbage", "f-plain", "d-no-zone", "c-lisbon", "b-tokyo", "a-camera"],
                       "oldest first by the clock where each was taken, ties (the same file date) by id")
        XCTAssertEqual(try XCTUnwrap(library.catalog.ordered(.id)).photos.map(\.title),
                       ["a-camera", "b-tokyo", "c-lisbon", "d-no-zone", "e-garbage", "f-plain"])

        // Kept in the catalog: a restart reads no header and builds nothing again.
        library.stop()
        library.waitForIngest()
        let again = CountingRenderer()
        let restarted = try folders.library(renderer: again)
        restarted.refresh()
        XCTAssertEqual(restarted.photo(camera.id)?.taken, camera.taken)
        XCTAssertEqual(restarted.photo(camera.id)?.details, camera.details)
        XCTAssertEqual(again.headers, 0)
    }

    func testACatalogFromBeforeDetailsGetsThemFromHeadersWithoutRebuildingPyramids() throws {
        let folders = try Folders(self)
        try photo(folders, "camera.jpg", Self.camera)
        try folders.real("plain.jpg", 80, 60, seed: 2)
        let first = try folders.library(renderer: CountingRenderer())
        first.refresh()
        for photo in first.photos { XCTAssertNil(first.buildPyramid(photo)) }
        XCTAssertEqual(first.photos.map(\.status), [.ready, .ready])
        first.stop()
        first.waitForIngest()

        // Back to schema step 2, as a catalog written before this version left it.
        let db = try SQLDatabase(.sqlite(path: folders.data + "/catalog.sqlite"))
        for sql in ["ALTER TABLE photos DROP COLUMN taken", "ALTER TABLE photos DROP COLUMN taken_source",
                    "ALTER TABLE photos DROP COLUMN details", "DROP TABLE albums",
                    "DELETE FROM schema_migrations WHERE schema_name = 'catalog' AND version = 3"] {
            try db.withConnection { try $0.execute(sql) }
        }
        db.close()

        // Migrated on open: the old rows carry no details, meaning "header not read yet".
        let migrated = try SQLCatalogStore(path: folders.data + "/catalog.sqlite")
        XCTAssertEqual(try migrated.entries().map(\.taken), [nil, nil])
        XCTAssertEqual(try migrated.albums(), [])

        let renderer = CountingRenderer()
        let library = try folders.library(renderer: renderer)
        library.refresh()
        XCTAssertEqual(library.photos.map(\.status), [.ready, .ready], "the pyramids are still the photos'")
        // (Whether the headers are still unread here depends on the background pass that
        // `refresh` started; the migrated rows above already showed them unread.)
        // The full scan started the same pass in the background; whichever runs it reads both,
        // and the pass ends with the rows written.
        let store = try SQLCatalogStore(path: folders.data + "/catalog.sqlite")
        var read = library.catalog.readMissingHeaders()
        try eventually(timeout: 60) {
            if try store.entries().map(\.takenSource) == ["exif", "file"] { return true }
            read += library.catalog.readMissingHeaders()
            return false
        }
        XCTAssertEqual(try store.entries().map(\.takenSource), ["exif", "file"])
        XCTAssertLessThanOrEqual(read, 2)
        XCTAssertEqual(library.photos.first?.taken, "2024-03-05T14:22:01+01:00")
        XCTAssertEqual(try details(library.photos.first)["model"] as? String, "iPhone 15 Pro")
        XCTAssertEqual(renderer.builds, 0, "no pyramid rebuilt")
        XCTAssertEqual(renderer.headers, 2, "each header read once")
        XCTAssertEqual(library.catalog.readMissingHeaders(), 0, "nothing left to read")
    }

    func testJoiningTheIngestWaitsForAPassReadingDetails() throws {
        let folders = try Folders(self)
        try folders.real("plain.jpg", 80, 60, seed: 2)
        let library = try folders.library(renderer: CountingRenderer())
        // A pass running, holding the pass's lock as a pass does, until told to end.
        let holding = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        let pass = Thread {
            library.catalog.readingHeaders.lock()
            holding.signal()
            release.wait()
            library.catalog.readingHeaders.unlock()
        }
        pass.start()
        holding.wait()
        XCTAssertFalse(library.catalog.waitForHeaderPass(until: .now + .milliseconds(100)), "a pass is running")
        library.stop()
        XCTAssertFalse(library.joinIngest(deadline: .now + .milliseconds(100)), "not joined while the pass runs")
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.1) { release.signal() }
        XCTAssertTrue(library.joinIngest(deadline: .now + .seconds(60)), "joined once it ends")
        XCTAssertTrue(library.catalog.waitForHeaderPass(until: .now))
    }
}
