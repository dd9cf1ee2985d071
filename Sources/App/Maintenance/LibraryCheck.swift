import Access
import Foundation
import Imaging
import Library

/// The catalog against the files, the pyramids against the catalog, and the rows that name a
/// photo or album that is gone. Reading only, unless asked to repair what is safe to repair:
/// a bad pyramid is removed (the server builds it again), a photo whose file is gone is marked
/// missing by a scan, and orphan comments, share links, favourites and album members are dropped.
struct LibraryCheck {
    let library: any LibraryAdministering
    let databases: ApplicationDatabases
    let tileSize: Int

    func run(repair: Bool, progress: (String) -> Void = { _ in }) throws -> [CheckFinding] {
        var findings: [CheckFinding] = []
        var badPyramids: [String] = []
        var missingFiles = false
        for photo in library.photos {
            if !FileManager.default.fileExists(atPath: photo.sourcePath) {
                findings.append(CheckFinding(kind: .missingFile, detail: "photo \(photo.id) (\(photo.relativePath)) is in the catalog, its file is gone"))
                missingFiles = true
            }
            let directory = library.configuration.tilesDirectory + "/" + photo.version
            guard FileManager.default.fileExists(atPath: directory), let pyramid = photo.pyramid(tileSize: tileSize) else { continue }
            // A pyramid stored in its photo keeps only its thumbnail here; its tiles are the photo's.
            if FileManager.default.fileExists(atPath: directory + "/" + PhotoRenderer.storedMarker) { continue }
            let before = findings.count
            for z in 0...pyramid.maxZoom {
                let grid = pyramid.grid(z)!
                for x in 0..<grid.columns {
                    for y in 0..<grid.rows {
                        let tile = TileCoordinate(z: z, x: x, y: y)
                        let path = PhotoRenderer.tilePath(in: directory, tile)
                        let rect = pyramid.rect(tile)!
                        if !FileManager.default.fileExists(atPath: path) {
                            findings.append(CheckFinding(kind: .missingTile, detail: "photo \(photo.id) (\(photo.relativePath)), tile \(tile)"))
                        } else if !PhotoRenderer.tileReadsBack(path, width: rect.width, height: rect.height) {
                            findings.append(CheckFinding(kind: .badTile, detail: "photo \(photo.id) (\(photo.relativePath)), tile \(tile) does not decode"))
                        }
                    }
                }
            }
            if findings.count > before { badPyramids.append(directory) }
            progress("photo \(photo.id): \(pyramid.tileCount) tiles read")
        }
        let photos = Set(try databases.catalog.query("SELECT id FROM photos").map { try $0.decode(0, as: Int.self) })
        // The tables as this build reads them (a link's folder, albums): the step a server would
        // take at its start, and nothing when one has.
        try databases.comments.migrate(AccessSchema.schema)
        try databases.comments.migrate(CollectionSchema.schema)
        let folders = Set(try databases.catalog.query("SELECT id FROM albums").map { try $0.decode(0, as: Int.self) })
        let albums = Set(try databases.comments.query("SELECT id FROM collection_albums").map { try $0.decode(0, as: Int.self) })
        let comments = try databases.comments.query("SELECT id, photo_id FROM comments ORDER BY id")
            .map { (try $0.decode(0, as: Int.self), try $0.decode(1, as: Int.self)) }.filter { !photos.contains($0.1) }
        for (id, photo) in comments {
            findings.append(CheckFinding(kind: .orphanComment, detail: "comment \(id) is under photo \(photo), which the catalog does not have"))
        }
        let shares = try databases.comments.query("SELECT id, album_id, folder_id, photo_id FROM shares ORDER BY id").compactMap { row -> (Int, String)? in
            let id = try row.decode(0, as: Int.self)
            if let album = try row.decode(1, as: Int?.self), !albums.contains(album) { return (id, "album \(album), which no longer exists") }
            if let folder = try row.decode(2, as: Int?.self), !folders.contains(folder) { return (id, "folder \(folder), which the catalog does not have") }
            if let photo = try row.decode(3, as: Int?.self), !photos.contains(photo) { return (id, "photo \(photo), which the catalog does not have") }
            return nil
        }
        for (id, target) in shares {
            findings.append(CheckFinding(kind: .orphanShare, detail: "share link \(id) opens \(target)"))
        }
        let members = try databases.comments.query("SELECT album_id, photo_id FROM collection_album_photos ORDER BY album_id, photo_id")
            .map { (try $0.decode(0, as: Int.self), try $0.decode(1, as: Int.self)) }.filter { !photos.contains($0.1) }
        for (album, photo) in members {
            findings.append(CheckFinding(kind: .orphanAlbumPhoto, detail: "album \(album) holds photo \(photo), which the catalog does not have"))
        }
        let favourites = try databases.comments.query("SELECT photo_id FROM favourites ORDER BY photo_id")
            .map { try $0.decode(0, as: Int.self) }.filter { !photos.contains($0) }
        for photo in favourites {
            findings.append(CheckFinding(kind: .orphanFavourite, detail: "photo \(photo) is a favourite the catalog does not have"))
        }
        guard repair else { return findings }

        for directory in badPyramids { try FileManager.default.removeItem(atPath: directory) }
        if missingFiles { try library.scanOffline(examines: false) }
        try databases.comments.transaction { tx in
            for (id, _) in comments { try tx.run("DELETE FROM comments WHERE id = \(id)") }
            for (id, _) in shares { try tx.run("DELETE FROM shares WHERE id = \(id)") }
            for photo in favourites { try tx.run("DELETE FROM favourites WHERE photo_id = \(photo)") }
            for (album, photo) in members { try tx.run("DELETE FROM collection_album_photos WHERE album_id = \(album) AND photo_id = \(photo)") }
        }
        return findings.map { var finding = $0; finding.repaired = true; return finding }
    }
}
