import Foundation
import HTTP
import POSIX
import Uploads

/// A `multipart/form-data` body (`curl -F file=@a.jpg /uploads/form`) as it streams in: each
/// file part is written to an upload's file in the data folder and becomes a photo when the
/// part ends, as a tus upload does when its last byte arrives. `folder` and `album` fields
/// choose the folder and the album of the file parts after them, except through a share link:
/// its folder, whatever the fields say.
// @unchecked Sendable: every field that changes is guarded by `lock`.
final class FormUploadSink: RequestBodySink, @unchecked Sendable {
    private let lock = NSLock()
    private let service: UploadService
    private let request: HTTPRequest
    private var reader: MultipartReader
    /// The file part being written: its upload, its file, and how much it holds.
    private var current: (record: UploadRecord, file: FileDescriptor, written: Int)?
    /// A field part being read (small: 4 KiB at most).
    private var field: (name: String, bytes: [UInt8])?
    private var fields: [(String, String)] = []
    private var outcomes: [FormUploadAnswer.Photo] = []
    private var ended = false
    private let place: UploadRoutes.Place

    init(service: UploadService, request: HTTPRequest, reader: MultipartReader, place: UploadRoutes.Place = .library) {
        self.service = service
        self.request = request
        self.reader = reader
        self.place = place
    }

    func write(_ bytes: [UInt8]) throws {
        lock.lock()
        defer { lock.unlock() }
        guard !ended else { return }
        do {
            try reader.feed(bytes) { event in try handle(event) }
        } catch let problem as MultipartReader.Problem {
            throw HTTPError(.badRequest, problem.description)
        }
    }

    private func handle(_ event: MultipartReader.Event) throws {
        switch event {
        case .part(let name, let fileName?) where !fileName.isEmpty || name == "file":
            var metadata = "filename " + Data(fileName.utf8).base64EncodedString()
            for (key, value) in fields where place.link == nil && (key == "album" || key == "folder") {
                metadata += ",\(key) " + Data(value.utf8).base64EncodedString()
            }
            // The length is not known before the part ends: the most allowed stands for it.
            let record = try service.create(length: service.limits.maxBytes, metadata: metadata, request: request, link: place.link)
            do { current = (record, try service.files.openForWriting(record.id), 0) } catch {
                service.discard(record.id)
                throw UploadService.storageError(error)
            }
        case .part(let name, _):
            field = (name, [])
        case .data(let bytes):
            if var part = current {
                guard bytes.count <= service.limits.maxBytes - part.written else {
                    throw HTTPError(.contentTooLarge, "A file is larger than \(service.limits.maxBytes) bytes (maxUploadMegabytes).")
                }
                var written = 0
                do { try part.file.write(bytes, at: part.written, written: &written) } catch {
                    throw UploadService.storageError(error)
                }
                part.file.startWriteback(offset: part.written, length: bytes.count)
                part.written += bytes.count
                current = part
            } else if var part = field {
                part.bytes += bytes
                guard part.bytes.count <= 4096 else { throw HTTPError(.contentTooLarge, "The form field \(part.name) is longer than 4096 bytes.") }
                field = part
            }
        case .partEnd:
            if let part = current {
                current = nil
                part.file.close()
                var record = part.record
                record.length = part.written
                do {
                    let outcome = try service.complete(record)
                    outcomes.append(.init(name: record.fileName, path: place.link == nil ? outcome.path : nil, id: outcome.photoID,
                                          duplicate: outcome.duplicate))
                } catch {
                    service.discard(record.id)
                    throw error
                }
            } else if let part = field {
                field = nil
                fields.append((part.name, String(decoding: part.bytes, as: UTF8.self)))
            }
        }
    }

    func finish() throws -> HTTPResponse {
        lock.lock()
        defer { lock.unlock() }
        ended = true
        guard reader.isComplete else {
            dropCurrent()
            throw HTTPError(.badRequest, "The form ended before its closing boundary.")
        }
        guard !outcomes.isEmpty else { throw HTTPError(.badRequest, "The form has no file; send one as a file part (curl -F file=@photo.jpg).") }
        let stored = outcomes.contains { !$0.duplicate }
        return try HTTPResponse.json(FormUploadAnswer(photos: outcomes), status: stored ? .created : .ok)
    }

    func abandon() {
        lock.lock()
        defer { lock.unlock() }
        ended = true
        dropCurrent()
    }

    /// A file part cut short is of no use: unlike a tus upload, a form cannot be resumed.
    private func dropCurrent() {
        guard let part = current else { return }
        current = nil
        part.file.close()
        service.discard(part.record.id)
    }
}
