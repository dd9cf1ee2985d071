import Foundation
import POSIX
import SQL

extension PhotoLibrary {
    /// Favourites, the trash's records and albums in `database` (their tables made or migrated
    /// first), which the trash's moves here record in.
    public static func openCollections(database: SQLDatabase) throws -> any PhotoCollections {
        try CollectionStore(database: database)
    }

    /// `<data>/trash`: deleted photos wait here, as they were, until restored or purged.
    var trashDirectory: String { configuration.dataDirectory + "/trash" }

    /// Moves photos into `folder` of the photos folder (made when missing). Each keeps its id,
    /// comments and pyramid: the file is the same file under another name.
    public func move(_ ids: [Int], toFolder folder: String) throws -> [PlacedPhoto] {
        let photos = try ids.map { id in try catalog.photo(id).map { $0 } ?? { throw ManageError.noSuchPhoto(id) }() }
        var moved: [(Int, String, String)] = []
        var failure: Error?
        for photo in photos {
            do { moved.append((photo.id, photo.relativePath, try writer.move(photo.relativePath, toFolder: folder))) } catch {
                failure = ManageError.folder(error)
                break
            }
        }
        let scope = ScanScope(directories: Set(moved.map { PhotoFolder.parent(of: $0.1) } + [folder]), goneFiles: Set(moved.map(\.1)))
        rescanNow(scope)
        if let failure { throw failure }
        return moved.map { PlacedPhoto(from: $0.0, id: catalog.photo(relativePath: $0.2)?.id, path: $0.2) }
    }

    /// Copies photos into `folder`: each copy is a photo of its own, with a new id.
    public func copy(_ ids: [Int], toFolder folder: String) throws -> [PlacedPhoto] {
        let photos = try ids.map { id in try catalog.photo(id).map { $0 } ?? { throw ManageError.noSuchPhoto(id) }() }
        var copies: [(Int, String)] = []
        var failure: Error?
        for photo in photos {
            do { copies.append((photo.id, try writer.copy(photo.relativePath, toFolder: folder))) } catch {
                failure = ManageError.folder(error)
                break
            }
        }
        rescanNow(ScanScope(directories: [folder]))
        if let failure { throw failure }
        return copies.map { PlacedPhoto(from: $0.0, id: catalog.photo(relativePath: $0.1)?.id, path: $0.1) }
    }

    /// Moves photos out of the photos folder into the trash, as one batch; returns the items.
    public func trash(_ ids: [Int], store: any PhotoCollections, now: Int) throws -> [TrashItem] {
        let photos = try ids.map { id in try catalog.photo(id).map { $0 } ?? { throw ManageError.noSuchPhoto(id) }() }
        try FileManager.default.createDirectory(atPath: trashDirectory, withIntermediateDirectories: true)
        let batch = Self.token()
        var items: [TrashItem] = []
        var failure: Error?
        for photo in photos {
            let item = TrashItem(id: Self.token(), batch: batch, photoID: photo.id, path: photo.relativePath,
                                 size: catalog.folder.fingerprint(photo.relativePath)?.size ?? 0, deletedAt: now)
            do {
                try store.insert(item)
                do { try writer.moveOut(photo.relativePath, to: trashDirectory + "/" + item.id) } catch {
                    _ = try? store.remove(item.id)
                    throw ManageError.folder(error)
                }
                items.append(item)
            } catch {
                failure = error
                break
            }
        }
        rescanNow(ScanScope(directories: Set(items.map { PhotoFolder.parent(of: $0.path) }), goneFiles: Set(items.map(\.path))))
        if let failure { throw failure }
        return items
    }

    /// Puts trashed photos back where they were (under a free `name (n)` if the name was taken
    /// meanwhile). Back at its own path a photo gets its old id again, and with it its comments
    /// and favourite. Items another replica restored first are skipped.
    public func restore(_ items: [TrashItem], store: any PhotoCollections) throws -> [PlacedPhoto] {
        var placed: [PlacedPhoto] = []
        var failure: Error?
        for item in items {
            guard try store.remove(item.id) else { continue }
            let folder = PhotoFolder.parent(of: item.path)
            let name = String(item.path.split(separator: "/").last ?? "")
            do {
                let path = try writer.place(trashDirectory + "/" + item.id, in: folder, as: name)
                placed.append(PlacedPhoto(from: item.photoID, id: nil, path: path))
            } catch {
                try? store.insert(item)
                failure = ManageError.folder(error)
                break
            }
        }
        rescanNow(ScanScope(directories: Set(placed.map { PhotoFolder.parent(of: $0.path) })))
        if let failure { throw failure }
        return placed.map { PlacedPhoto(from: $0.from, id: catalog.photo(relativePath: $0.path)?.id, path: $0.path) }
    }

    /// Deletes trashed photos for good, and takes them out of their albums; returns how many.
    @discardableResult
    public func purge(_ items: [TrashItem], store: any PhotoCollections) throws -> Int {
        var purged: [Int] = []
        for item in items where try store.remove(item.id) {
            FileSystem.removeFile(trashDirectory + "/" + item.id)
            purged.append(item.photoID)
        }
        try store.leaveAlbums(purged)
        return purged.count
    }

    /// Scans `scope` now (and examines what is new), waiting up to `patience` for a scan that
    /// another thread or replica is running; false when it could not.
    @discardableResult
    public func rescanNow(_ scope: ScanScope, patience: Duration = .seconds(2)) -> Bool {
        guard !scope.isEmpty else { return true }
        let options = PhotoCatalog.ScanOptions(examines: true, settleNanoseconds: 0,
                                               graceNanoseconds: Int(configuration.missingGraceSeconds * 1e9))
        let deadline = ContinuousClock.now + patience
        while true {
            if scan(scope, options: options) != nil { return true }
            guard ContinuousClock.now < deadline else { return false }
            Thread.sleep(forTimeInterval: 0.05)  // another scan holds the claim; it is short
        }
    }

    /// 32 random hex digits.
    static func token() -> String { UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased() }
}
