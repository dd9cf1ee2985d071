import Foundation
import HTTP
import POSIX
import SQL
import Synchronization
import Uploads

/// The body of one PATCH (or of a creation that carries data) as it goes into its upload's
/// file, piece by piece at the upload's offset; the upload's claim is held until it ends.
///
/// Ended by `finish` (the checksum, when one was sent, must match, or the piece is cut off
/// again and 460 answered; the bytes are synced; a complete upload becomes a photo) or by
/// `abandon` (a cut connection: what arrived stays, so the client resumes from there; with a
/// checksum nothing of the piece can be trusted, so it is cut off).
final class UploadSink: RequestBodySink, Sendable {
    /// What changes as the piece arrives. Held for a whole call: the server calls one method at
    /// a time, but an abandon may race a write.
    private struct State {
        var offset: Int
        var ended = false
        var checksum: (digest: ChecksumDigest, expected: [UInt8])?
    }

    private let state: Mutex<State>
    private let service: UploadService
    private let record: UploadRecord
    private let file: FileDescriptor
    private let claim: SQLAdvisoryLock
    /// Where this request's piece began.
    private let start: Int
    /// For a creation with data: the new upload's URL, answered with 201.
    private let location: String?
    /// Put before the photo's path in the answer: empty, or a share link's `/s/{token}`.
    private let prefix: String

    init(service: UploadService, record: UploadRecord, file: FileDescriptor, claim: SQLAdvisoryLock, offset: Int,
         checksum: UploadChecksumHeader?, location: String?, prefix: String = "") {
        self.service = service
        self.record = record
        self.file = file
        self.claim = claim
        self.start = offset
        self.state = Mutex(State(offset: offset, checksum: checksum.map { (ChecksumDigest($0.algorithm), $0.digest) }))
        self.location = location
        self.prefix = prefix
    }

    func write(_ bytes: [UInt8]) throws {
        try state.withLock { state in
            guard !state.ended else { throw HTTPError(.conflict, "This request's part of the upload has ended.", headers: TusProtocol.commonHeaders) }
            guard bytes.count <= record.length - state.offset else {
                throw HTTPError(.contentTooLarge, "The body goes past the upload's length of \(record.length) bytes (Upload-Length).",
                                headers: TusProtocol.commonHeaders)
            }
            var written = 0
            do throws(SystemCallError) { try file.write(bytes, at: state.offset, written: &written) } catch {
                state.offset += written
                throw UploadService.storageError(error)
            }
            state.checksum?.digest.update(bytes)
            file.startWriteback(offset: state.offset, length: bytes.count)
            state.offset += bytes.count
        }
    }

    func finish() throws -> HTTPResponse {
        try state.withLock { state in
            guard !state.ended else { throw HTTPError(.conflict, "This request's part of the upload has ended.", headers: TusProtocol.commonHeaders) }
            state.ended = true
            defer {
                file.close()
                claim.release()
            }
            if let checksum = state.checksum, checksum.digest.finish() != checksum.expected {
                try? file.truncate(to: start)
                service.noteReceived(record, bytes: start)
                throw HTTPError(TusProtocol.checksumMismatch,
                                "The body's \(checksum.digest.algorithm.rawValue) does not match Upload-Checksum; the upload stays at offset \(start).",
                                headers: TusProtocol.headers(["Upload-Offset": String(start)]))
            }
            do throws(SystemCallError) { try file.synchronizeData() } catch { throw UploadService.storageError(error) }
            service.noteReceived(record, bytes: state.offset)
            var headers = TusProtocol.headers(["Upload-Offset": String(state.offset)])
            if state.offset == record.length {
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
    }

    func abandon() {
        state.withLock { state in
            guard !state.ended else { return }
            state.ended = true
            if state.checksum != nil && state.offset != start {
                try? file.truncate(to: start)
                state.offset = start
            }
            service.noteReceived(record, bytes: state.offset)
            file.close()
            claim.release()
        }
    }
}
