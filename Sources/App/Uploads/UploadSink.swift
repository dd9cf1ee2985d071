import Foundation
import HTTP
import POSIX
import SQL
import Uploads

/// The body of one PATCH (or of a creation that carries data) as it goes into its upload's
/// file, piece by piece at the upload's offset; the upload's claim is held until it ends.
///
/// Ended by `finish` (the checksum, when one was sent, must match, or the piece is cut off
/// again and 460 answered; the bytes are synced; a complete upload becomes a photo) or by
/// `abandon` (a cut connection: what arrived stays, so the client resumes from there; with a
/// checksum nothing of the piece can be trusted, so it is cut off).
// @unchecked Sendable: every field that changes is guarded by `lock` (the server calls one method at a time, but an abandon may race a write).
final class UploadSink: RequestBodySink, @unchecked Sendable {
    private let lock = NSLock()
    private let service: UploadService
    private let record: UploadRecord
    private let file: FileDescriptor
    private let claim: SQLAdvisoryLock
    /// Where this request's piece began.
    private let start: Int
    private var offset: Int
    private let checksum: (digest: ChecksumDigest, expected: [UInt8])?
    /// For a creation with data: the new upload's URL, answered with 201.
    private let location: String?
    /// Put before the photo's path in the answer: empty, or a share link's `/s/{token}`.
    private let prefix: String
    private var ended = false

    init(service: UploadService, record: UploadRecord, file: FileDescriptor, claim: SQLAdvisoryLock, offset: Int,
         checksum: UploadChecksumHeader?, location: String?, prefix: String = "") {
        self.service = service
        self.record = record
        self.file = file
        self.claim = claim
        self.start = offset
        self.offset = offset
        self.checksum = checksum.map { (ChecksumDigest($0.algorithm), $0.digest) }
        self.location = location
        self.prefix = prefix
    }

    func write(_ bytes: [UInt8]) throws {
        lock.lock()
        defer { lock.unlock() }
        guard !ended else { throw HTTPError(.conflict, "This request's part of the upload has ended.", headers: TusProtocol.commonHeaders) }
        guard bytes.count <= record.length - offset else {
            throw HTTPError(.contentTooLarge, "The body goes past the upload's length of \(record.length) bytes (Upload-Length).",
                            headers: TusProtocol.commonHeaders)
        }
        var written = 0
        do { try file.write(bytes, at: offset, written: &written) } catch {
            offset += written
            throw UploadService.storageError(error)
        }
        checksum?.digest.update(bytes)
        file.startWriteback(offset: offset, length: bytes.count)
        offset += bytes.count
    }

    func finish() throws -> HTTPResponse {
        lock.lock()
        defer { lock.unlock() }
        guard !ended else { throw HTTPError(.conflict, "This request's part of the upload has ended.", headers: TusProtocol.commonHeaders) }
        ended = true
        defer {
            file.close()
            claim.release()
        }
        if let checksum, checksum.digest.finish() != checksum.expected {
            try? file.truncate(to: start)
            service.noteReceived(record, bytes: start)
            throw HTTPError(TusProtocol.checksumMismatch,
                            "The body's \(checksum.digest.algorithm.rawValue) does not match Upload-Checksum; the upload stays at offset \(start).",
                            headers: TusProtocol.headers(["Upload-Offset": String(start)]))
        }
        do { try file.synchronizeData() } catch { throw UploadService.storageError(error) }
        service.noteReceived(record, bytes: offset)
        var headers = TusProtocol.headers(["Upload-Offset": String(offset)])
        if offset == record.length {
            let outcome = try service.complete(record)
            UploadRoutes.describe(outcome, prefix: prefix, into: &headers)
        } else {
            headers.add("Upload-Expires", HTTPDate.format(service.now() + service.limits.expirySeconds))
        }
        if let location {
            headers.add("Location", location)
            return HTTPResponse(status: .created, headers: headers)
        }
        return HTTPResponse(status: .noContent, headers: headers)
    }

    func abandon() {
        lock.lock()
        defer { lock.unlock() }
        guard !ended else { return }
        ended = true
        if checksum != nil && offset != start {
            try? file.truncate(to: start)
            offset = start
        }
        service.noteReceived(record, bytes: offset)
        file.close()
        claim.release()
    }
}
