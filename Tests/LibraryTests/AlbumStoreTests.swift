import Foundation
@testable import Library
import SQL
import SQLTesting
import XCTest

/// Albums as collections in SQL, on SQLite and PostgreSQL: what is stored is what is read back.
final class AlbumStoreTests: XCTestCase {
    private func forEachEngine(_ body: (CollectionStore, String) throws -> Void) throws {
        try SQLTestDatabase.forEachEngine { place in
            let database = try place.open()
            defer { database.close() }
            try body(try CollectionStore(database: database), place.name)
        }
    }

    func testAlbumsKeepTitlesOrderCoversAndPhotosInAnyNumberOfAlbums() throws {
        try forEachEngine { store, place in
            let rome = try store.createAlbum(title: "Rome", now: 10)
            let dogs = try store.createAlbum(title: "Dogs", now: 11)
            XCTAssertEqual([rome.position, dogs.position], [0, 1], place)
            XCTAssertEqual(try store.addPhotos([5, 3, 5], to: rome.id, now: 12)?.photoIDs, [5, 3], "once each, in the order added")
            XCTAssertEqual(try store.addPhotos([3, 9], to: dogs.id, now: 13)?.photoIDs, [3, 9], "photo 3 in two albums")
            XCTAssertEqual(try store.addPhotos([1], to: rome.id, now: 14)?.photoIDs, [5, 3, 1], "after the last")
            XCTAssertNil(try store.addPhotos([1], to: 999, now: 14))

            XCTAssertEqual(try store.updateAlbum(rome.id, AlbumChange(title: "Roma", cover: .some(3)))?.coverID, 3)
            XCTAssertEqual(try store.updateAlbum(rome.id, AlbumChange(position: 5))?.position, 1, "clamped to the list")
            XCTAssertEqual(try store.albums().map(\.title), ["Dogs", "Roma"], place)
            XCTAssertEqual(try store.albums().map(\.position), [0, 1])
            XCTAssertNil(try store.updateAlbum(999, AlbumChange(title: "x")))

            // Taking the cover out of the album goes back to no chosen cover.
            XCTAssertEqual(try store.removePhotos([3], from: rome.id)?.photoIDs, [5, 1])
            XCTAssertNil(try store.album(rome.id)?.coverID)
            XCTAssertEqual(try store.album(dogs.id)?.photoIDs, [3, 9], "the other album keeps it")
            XCTAssertEqual(try store.members(of: dogs.id), [3, 9])

            // A photo deleted for good leaves every album.
            try store.leaveAlbums([9, 5])
            XCTAssertEqual(try store.album(dogs.id)?.photoIDs, [3])
            XCTAssertEqual(try store.album(rome.id)?.photoIDs, [1])
            XCTAssertEqual(try store.members(of: dogs.id), [3], "what was kept of the members is forgotten with the change")

            XCTAssertTrue(try store.deleteAlbum(dogs.id))
            XCTAssertFalse(try store.deleteAlbum(dogs.id))
            XCTAssertNil(try store.members(of: dogs.id))
            XCTAssertEqual(try store.albums().map(\.id), [rome.id])
            XCTAssertEqual(try store.database.scalar("SELECT count(*) FROM collection_album_photos WHERE album_id = \(dogs.id)", as: Int.self), 0)
            // Ids are never reused.
            XCTAssertGreaterThan(try store.createAlbum(title: "New", now: 20).id, dogs.id)
        }
    }

    func testAnAlbumsOwnOrderIsKeptAndTheDateOrderCanBeAskedForAgain() throws {
        try forEachEngine { store, place in
            let album = try store.createAlbum(title: "Rome", now: 10)
            XCTAssertEqual(try store.addPhotos([5, 3, 1], to: album.id, now: 11)?.photoOrder, .taken, "by date until put in order")
            let ordered = try store.orderPhotos([1, 5], in: album.id)
            XCTAssertEqual(ordered?.photoIDs, [1, 5, 3], "\(place): those named first, the rest as they were")
            XCTAssertEqual(ordered?.photoOrder, .custom)
            XCTAssertEqual(try store.placePhotos([9, 3], in: album.id, at: 1, now: 12)?.photoIDs, [1, 9, 3, 5], "9 joins, 3 moves")
            XCTAssertEqual(try store.placePhotos([7], in: album.id, at: 99, now: 13)?.photoIDs, [1, 9, 3, 5, 7], "past the end: last")
            XCTAssertEqual(try store.orderPhotosByDate(in: album.id)?.photoOrder, .taken)
            let read = try XCTUnwrap(try store.albums().first { $0.id == album.id })
            XCTAssertEqual(read.photoIDs, [1, 9, 3, 5, 7], "\(place): its own order kept for when it is asked for again")
            XCTAssertEqual(read.photoOrder, .taken)
            XCTAssertEqual(try store.removePhotos([3], from: album.id)?.photoIDs, [1, 9, 5, 7])
            XCTAssertNil(try store.orderPhotos([1], in: 999))
            XCTAssertNil(try store.placePhotos([1], in: 999, at: 0, now: 14))
        }
    }
}
