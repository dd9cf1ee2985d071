import Access
import Foundation
import HTTP
import Imaging
import Library
import Observability
import POSIX
import SQL
import Uploads

/// Uploads from their creation to their photo: the bytes wait in `<data>/uploads` while they
/// arrive, from any replica; a complete upload is checked (an image the library reads, within
/// the pixel limit), compared with the library (the same bytes are never stored twice), and
/// put into the photos folder (`Uploads/YYYY/MM` by the date taken, or the folder chosen), and
/// into the album chosen, if one was.
final class UploadService: Sendable {
    let store: UploadStore
    let files: UploadFiles
    let library: any PhotoManaging
    let limits: UploadLimits
    let logger: Logger
    let permission: ManagePermission
    let clientAddress: ClientAddress
    /// Unix seconds now.
    let now: @Sendable () -> Int
    /// Albums an upload may join (`album` in its metadata); nil: none may.
    let albums: (any PhotoCollections)?

    init(database: SQLDatabase, dataDirectory: String, library: any PhotoManaging, limits: UploadLimits, clientAddress: ClientAddress,
         access: AccessControl? = nil, albums: (any PhotoCollections)? = nil, logger: Logger,
         now: @escaping @Sendable () -> Int = { Int(Date().timeIntervalSince1970) }) throws {
        self.albums = albums
        store = try UploadStore(database: database)
        do { files = try UploadFiles(directory: dataDirectory + "/uploads") } catch {
            throw ConfigurationError("Cannot make the uploads folder in the data folder: \(error.reason).")
        }
        self.library = library
        self.limits = limits
        self.logger = logger
        self.clientAddress = clientAddress
        permission = ManagePermission(clientAddress: clientAddress, access: access)
        self.now = now
    }

    // MARK: - Creation

    /// Makes a new upload of `length` bytes for the request's client: its row and its empty file.
    /// `link`: made through a share link, into its folder whatever the metadata names
    /// (`album` and `folder` in it are not read).
    func create(length: Int, metadata field: String, request: HTTPRequest, link: UploadLink? = nil) throws -> UploadRecord {
        guard length <= limits.maxBytes else {
            throw HTTPError(.contentTooLarge, "The upload is \(length) bytes; the most this server takes is \(limits.maxBytes) bytes (maxUploadMegabytes).",
                            headers: ["Tus-Max-Size": String(limits.maxBytes)])
        }
        let metadata: UploadMetadata
        do { metadata = try UploadMetadata.parse(field) } catch { throw HTTPError(.badRequest, error.description) }
        let client = clientAddress.of(request)
        guard try store.receivingCount(client: client) < limits.perClient else {
            throw HTTPError(.tooManyRequests, "You have \(limits.perClient) unfinished uploads; finish or cancel some first (uploadsPerClient).",
                            headers: ["Retry-After": "60"])
        }
        let folder = try link.map(\.folder) ?? destinationFolder(metadata)
        if link == nil { _ = try destinationAlbum(metadata) }
        let id = UploadID()
        let time = now()
        let record = UploadRecord(id: id, length: length, metadata: field,
                                  fileName: metadata.fileName.flatMap(UploadFileName.sanitized) ?? "",
                                  folder: folder, client: client, share: link?.share, createdAt: time, expiresAt: time + limits.expirySeconds)
        do { try files.create(id) } catch { throw Self.storageError(error) }
        do { try store.insert(record) } catch {
            files.remove(id)
            throw error
        }
        return record
    }

    /// The folder named by `folder` (a folder of the photos folder, made when missing) in the
    /// metadata; nil for the dated uploads folder.
    func destinationFolder(_ metadata: UploadMetadata) throws -> String? {
        if let folder = metadata.text("folder"), !folder.isEmpty {
            do { _ = try PhotoFolderWriter.components(folder) } catch { throw HTTPError(.badRequest, error.description) }
            return folder
        }
        return nil
    }

    /// The album named by `album` (an album's id) in the metadata, which the photo joins once
    /// it is in the library; nil when none is named.
    func destinationAlbum(_ metadata: UploadMetadata) throws -> Int? {
        guard let text = metadata.text("album") else { return nil }
        guard let id = Int(text), try albums?.album(id) != nil else {
            throw HTTPError(.badRequest, "There is no album \(text.prefix(20)) to add the photo to.")
        }
        return id
    }

    /// Puts an uploaded photo into the album its metadata names (not through a link: a link's
    /// holder adds to the shared folder only). An album deleted meanwhile is let go.
    private func joinAlbum(_ record: UploadRecord, photoID: Int?) {
        guard record.share == nil, let photoID, let albums,
              let metadata = try? UploadMetadata.parse(record.metadata), let id = try? destinationAlbum(metadata) else { return }
        do { _ = try albums.addPhotos([photoID], to: id, now: now()) } catch {
            logger.warning("an uploaded photo could not join its album", [("album", String(id)), ("error", "\(error)")])
        }
    }

    // MARK: - Reading

    /// The upload, 404 when there is none, 410 when its time is up. `link`: asked through that
    /// share link, which sees its own uploads only (another's is not there, as far as it can
    /// tell); nil: asked by the library's manager, who does not reach a link's.
    func record(_ id: UploadID, link: UploadLink? = nil) throws -> UploadRecord {
        guard let record = try store.record(id), record.share == link?.share else { throw HTTPError(.notFound, "There is no upload \(id).", headers: TusProtocol.commonHeaders) }
        if record.state == .receiving && record.expiresAt <= now() {
            throw HTTPError(.gone, "Upload \(id) expired unfinished; start it again.", headers: TusProtocol.commonHeaders)
        }
        return record
    }

    /// How many bytes of the upload the server has: the file's size while it is receiving.
    func offset(_ record: UploadRecord) throws -> Int {
        if record.state == .complete { return record.length }
        guard let size = files.size(record.id) else {
            throw HTTPError(.gone, "The bytes of upload \(record.id) are gone; start it again.", headers: TusProtocol.commonHeaders)
        }
        return min(size, record.length)
    }

    /// Takes the upload for one request at a time, over every replica: a PATCH that a cut
    /// connection left behind lets go within moments, so this waits up to 3 s for it, then
    /// answers 423.
    func claim(_ id: UploadID) throws -> SQLAdvisoryLock {
        let key = SQLLockKey("upload", Self.number(id.text))
        let deadline = ContinuousClock.now + .seconds(3)
        while true {
            if let lock = try store.database.tryLock(key) { return lock }
            guard ContinuousClock.now < deadline else {
                throw HTTPError(.locked, "Upload \(id) is being written by another request; try again in a moment.",
                                headers: TusProtocol.headers(["Retry-After": "1"]))
            }
            Thread.sleep(forTimeInterval: 0.02)  // the holder's connection is closing; no event tells another replica
        }
    }

    /// Writes down how far an upload has come, and pushes its expiry on.
    func noteReceived(_ record: UploadRecord, bytes: Int) {
        do { try store.received(record.id, bytes: bytes, expiresAt: now() + limits.expirySeconds) } catch {
            logger.warning("cannot record an upload's progress; its file still says", [("upload", record.id.text), ("error", "\(error)")])
        }
    }

    /// When an unfinished upload expires now, as an `Upload-Expires` date.
    func expiryDate(_ record: UploadRecord) -> String { HTTPDate.format(record.expiresAt) }

    // MARK: - Completion

    /// Checks a complete upload's bytes and puts them into the photos folder (or points at the
    /// photo that has them already). A file that is no photo, or too large, is refused and the
    /// upload deleted; a full disk leaves the upload as it was, to be completed again.
    func complete(_ record: UploadRecord) throws -> UploadOutcome {
        let path = files.path(record.id)
        // Made through a link revoked or expired since: its bytes never reach the photos folder.
        if let share = record.share, try !linkStillAdds(share) {
            discard(record.id)
            throw HTTPError(.notFound, "This link was revoked or has expired: the photo was not added.", headers: TusProtocol.commonHeaders)
        }
        let header: AddedPhotoHeader
        do { header = try library.inspectAddition(path) } catch let error as ImagingError {
            discard(record.id)
            throw Self.refusal(error)
        }
        let hashes: ContentHash.FileHashes
        do { hashes = try ContentHash.file(path, alsoLegacy: true) } catch {
            throw HTTPError(.internalServerError, "The upload's bytes could not be read back.")
        }
        // One completion per content at a time, over every replica: two clients sending the
        // same bytes at once store them once.
        let claim = try contentClaim(hashes.xxh3)
        defer { claim.release() }
        // Through a link, only the album's own photos count: pointing at one elsewhere would
        // tell the link's holder what else the library holds.
        if let existing = try existingPhoto(hashes, size: record.length, inFolder: record.share == nil ? nil : record.folder) {
            files.remove(record.id)
            try store.complete(record.id, length: record.length, contentHash: hashes.xxh3, photoPath: existing.path, duplicate: true,
                               expiresAt: now() + limits.expirySeconds)
            logger.info("upload was in the library already", [("upload", record.id.text), ("path", existing.path)])
            joinAlbum(record, photoID: existing.id)
            return UploadOutcome(path: existing.path, photoID: existing.id, duplicate: true)
        }
        let folder = record.folder ?? datedFolder(header.taken)
        let name = UploadFileName.named(record.fileName.isEmpty ? nil : record.fileName, mediaType: header.mediaType,
                                        fallbackStem: "upload-" + record.id.text.prefix(8))
        let placed: String
        do {
            try Self.synchronize(path)
            placed = try library.writer.place(path, in: folder, as: name)
        } catch let error as FolderWriteError {
            throw Self.refusal(error)
        }
        try store.complete(record.id, length: record.length, contentHash: hashes.xxh3, photoPath: placed, duplicate: false,
                           expiresAt: now() + limits.expirySeconds)
        let photo = library.addNow(placed, patience: .seconds(2))
        logger.info("photo uploaded", [("upload", record.id.text), ("path", placed), ("bytes", String(record.length))])
        joinAlbum(record, photoID: photo?.id)
        return UploadOutcome(path: placed, photoID: photo?.id, duplicate: false)
    }

    /// The photo with these bytes: in the catalog, or stored by an upload the catalog has not
    /// listed yet (another replica's, a moment ago) whose file is still there.
    /// `folder`: only a photo directly in that folder (an album) counts.
    private func existingPhoto(_ hashes: ContentHash.FileHashes, size: Int, inFolder folder: String?) throws -> (path: String, id: Int?)? {
        func counts(_ path: String) -> Bool { folder.map { Self.folder(of: path) == $0 } ?? true }
        if let photo = library.photo(withContent: hashes, size: size), counts(photo.relativePath) { return (photo.relativePath, photo.id) }
        for upload in try store.completed(contentHash: hashes.xxh3) {
            guard let path = upload.photoPath, counts(path), library.folder.fingerprint(path)?.size == size else { continue }
            guard (try? ContentHash.file(library.folder.source(path, expected: nil)))?.xxh3 == hashes.xxh3 else { continue }
            return (path, library.photo(relativePath: path)?.id)
        }
        return nil
    }

    /// The folder a photo's path is in ("" for the photos folder itself).
    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[..<slash])
    }

    /// Whether the share link `id` still lets photos be added: not revoked, not expired.
    func linkStillAdds(_ id: Int) throws -> Bool {
        guard let access = permission.access else { return false }
        let share: Share?
        do { share = try access.store.share(id: id) } catch {
            throw HTTPError(.serviceUnavailable, "The link cannot be checked now; the upload is kept, try again.",
                            headers: TusProtocol.headers(["Retry-After": "5"]))
        }
        guard let share else { return false }
        return share.upload && share.isLive(at: access.wallNow())
    }

    private func contentClaim(_ hash: String) throws -> SQLAdvisoryLock {
        let key = SQLLockKey("upload-content", Self.number(hash))
        let deadline = ContinuousClock.now + .seconds(30)
        while true {
            if let lock = try store.database.tryLock(key) { return lock }
            guard ContinuousClock.now < deadline else {
                throw HTTPError(.serviceUnavailable, "The same photo is being stored by another upload; try again.", headers: ["Retry-After": "2"])
            }
            Thread.sleep(forTimeInterval: 0.02)  // the other completion ends within its fsync
        }
    }

    /// `Uploads/YYYY/MM` of the date taken (on the camera's clock), or of today here.
    func datedFolder(_ taken: CaptureDate?) -> String {
        let localSeconds = taken.map { Int($0.localMilliseconds / 1000) }
            ?? now() + TimeZone.current.secondsFromGMT(for: Date(timeIntervalSince1970: Double(now())))
        let (year, month, _) = CivilCalendar.date(fromDays: Int((Double(localSeconds) / 86_400).rounded(.down)))
        return String(format: "Uploads/%04d/%02d", year, month)
    }

    /// Deletes an upload that can never complete.
    func discard(_ id: UploadID) {
        files.remove(id)
        do { try store.delete(id) } catch { logger.warning("cannot delete an upload's row", [("upload", id.text), ("error", "\(error)")]) }
    }

    /// Ends an upload at the client's request: its bytes and its row go. A complete upload's
    /// photo stays in the library.
    func terminate(_ id: UploadID) throws {
        files.remove(id)
        try store.delete(id)
    }

    /// Deletes uploads whose time is up: unfinished ones with their bytes, complete ones'
    /// rows. Returns how many.
    @discardableResult
    func sweepExpired() -> Int {
        do {
            let expired = try store.expired(now: now())
            for record in expired {
                guard let claim = try store.database.tryLock(SQLLockKey("upload", Self.number(record.id.text))) else { continue }
                defer { claim.release() }
                if record.state == .receiving { files.remove(record.id) }
                try store.delete(record.id)
            }
            if !expired.isEmpty { logger.info("expired uploads removed", [("uploads", String(expired.count))]) }
            return expired.count
        } catch {
            logger.warning("cannot remove expired uploads; trying again later", [("error", "\(error)")])
            return 0
        }
    }

    /// Removes the hidden files that a photo write cut short by a crash left in the photos
    /// folder (`PhotoFolderWriter.sweepLeftovers`), once they are a day old: a younger one may be
    /// another replica's write going on now.
    func sweepLeftovers() {
        let removed = library.writer.sweepLeftovers(olderThan: 86_400, now: Int(Date().timeIntervalSince1970))
        if let first = removed.first {
            logger.info("removed what interrupted writes left in the photos folder", [("files", String(removed.count)), ("first", first)])
        }
    }

    // MARK: - Helpers

    /// A lock key from the first 16 hex digits of an id or hash.
    static func number(_ hex: String) -> Int64 { Int64(bitPattern: UInt64(hex.prefix(16), radix: 16) ?? 0) }

    /// Waits until an upload's bytes are on the disk.
    static func synchronize(_ path: String) throws {
        let file: FileDescriptor
        do { file = try FileDescriptor.open(path, OpenFlags.readOnly) } catch { throw storageError(error) }
        defer { file.close() }
        do { try file.synchronizeData() } catch { throw storageError(error) }
    }

    /// A system call's failure on the upload's own file, as the client should see it.
    static func storageError(_ error: SystemCallError) -> HTTPError {
        if [Errno.noSpace, Errno.quotaExceeded, Errno.fileTooLarge].contains(error.errno) {
            return HTTPError(.insufficientStorage, "The server's disk is full; the upload keeps what it has and can go on once there is room.",
                             headers: TusProtocol.headers(["Retry-After": "60"]))
        }
        return HTTPError(.internalServerError, "The upload could not be written (\(error.reason)).", headers: TusProtocol.commonHeaders)
    }

    /// Why a complete upload's bytes were refused.
    static func refusal(_ error: ImagingError) -> HTTPError {
        switch error {
        case .notAnImage(let why):
            HTTPError(.unsupportedMediaType, "The upload is not a photo PhotoScroll can show (\(why)).", headers: TusProtocol.commonHeaders)
        case .tooLarge(let refusal):
            HTTPError(.unprocessableContent, refusal.description, headers: TusProtocol.commonHeaders)
        default:
            HTTPError(.unprocessableContent, "The photo cannot be read: \(error.description)", headers: TusProtocol.commonHeaders)
        }
    }

    static func refusal(_ error: FolderWriteError) -> HTTPError {
        switch error {
        case .full:
            HTTPError(.insufficientStorage, "The photos folder's disk is full; the upload is kept and completes once there is room.",
                      headers: TusProtocol.headers(["Retry-After": "60"]))
        case .invalidPath, .notAFolder, .missing, .notAFile:
            HTTPError(.conflict, error.description, headers: TusProtocol.commonHeaders)
        case .system:
            HTTPError(.internalServerError, error.description, headers: TusProtocol.commonHeaders)
        }
    }
}
