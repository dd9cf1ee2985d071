import Foundation
import HTTP
import POSIX
import Synchronization
import Uploads

/// A `multipart/form-data` body (`curl -F file=@a.jpg /uploads/form`) as it streams in: each
/// file part is written to an upload's file in the data folder and becomes a photo when the
/// part ends, as a tus upload does when its last byte arrives. `folder` and `album` fields
/// choose the folder and the album of the file parts after them, except through a share link:
/// its folder, whatever the fields say.
final class FormUploadSink: RequestBodySink, Sendable {
    /// What changes as the form streams in; held for a whole call.
    private struct State {
        var reader: MultipartReader
        var parts = Parts()
        var ended = false
    }

    /// What the parts read so far left behind.
    private struct Parts {
        /// The file part being written: its upload, its file, and how much it holds.
        var current: (record: UploadRecord, file: FileDescriptor, written: Int)?
        /// A field part being read (small: 4 KiB at most).
        var field: (name: String, bytes: [UInt8])?
        var fields: [(String, String)] = []
        var outcomes: [FormUploadAnswer.Photo] = []
    }

    private let state: Mutex<State>
    private let service: UploadService
    private let request: HTTPRequest
    private let place: UploadRoutes.Place

    init(service: UploadService, request: HTTPRequest, reader: MultipartReader, place: UploadRoutes.Place = .library) {
        self.service = service
        self.request = request
        self.state = Mutex(State(reader: reader))
        self.place = place
    }

    func write(_ bytes: [UInt8]) throws {
        try state.withLock { state in
            guard !state.ended else { return }
            do {
                try state.reader.feed(bytes) { event in try handle(event, &state.parts) }
            } catch let problem as MultipartReader.Problem {
                throw HTTPError(.badRequest, problem.description)
            }
        }
    }

    private func handle(_ event: MultipartReader.Event, _ parts: inout Parts) throws {
        switch event {
        case .part(let name, let fileName?) where !fileName.isEmpty || name == "file":
            var metadata = "filename " + Data(fileName.utf8).base64EncodedString()
            for (key, value) in parts.fields where place.link == nil && (key == "album" || key == "folder") {
                metadata += ",\(key) " + Data(value.utf8).base64EncodedString()
            }
            // The length is not known before the part ends: the most allowed stands for it.
            let record = try service.create(length: service.limits.maxBytes, metadata: metadata, request: request, link: place.link)
            do { parts.current = (record, try service.files.openForWriting(record.id), 0) } catch {
                service.discard(record.id)
                throw UploadService.storageError(error)
            }
        case .part(let name, _):
            parts.field = (name, [])
        case .data(let bytes):
            if var part = parts.current {
                guard bytes.count <= service.limits.maxBytes - part.written else {
                    throw HTTPError(.contentTooLarge, "A file is larger than \(service.limits.maxBytes) bytes (maxUploadMegabytes).")
                }
                var written = 0
                do { try part.file.write(bytes, at: part.written, written: &written) } catch {
                    throw UploadService.storageError(error)
                }
                part.file.startWriteback(offset: part.written, length: bytes.count)
                part.written += bytes.count
                parts.current = part
            } else if var part = parts.field {
                part.bytes += bytes
                guard part.bytes.count <= 4096 else { throw HTTPError(.contentTooLarge, "The form field \(part.name) is longer than 4096 bytes.") }
                parts.field = part
            }
        case .partEnd:
            if let part = parts.current {
                parts.current = nil
                part.file.close()
                var record = part.record
                record.length = part.written
                do {
                    let outcome = try service.complete(record)
                    parts.outcomes.append(.init(name: record.fileName, path: place.link == nil ? outcome.path : nil, id: outcome.photoID,
                                                duplicate: outcome.duplicate))
                } catch {
                    service.discard(record.id)
                    throw error
                }
            } else if let part = parts.field {
                parts.field = nil
                parts.fields.append((part.name, String(decoding: part.bytes, as: UTF8.self)))
            }
        }
    }

    func finish() throws -> HTTPResponse {
        try state.withLock { state in
            state.ended = true
            guard state.reader.isComplete else {
                dropCurrent(&state.parts)
                throw HTTPError(.badRequest, "The form ended before its closing boundary.")
            }
            let outcomes = state.parts.outcomes
            guard !outcomes.isEmpty else { throw HTTPError(.badRequest, "The form has no file; send one as a file part (curl -F file=@photo.jpg).") }
            let stored = outcomes.contains { !$0.duplicate }
            return try HTTPResponse.json(FormUploadAnswer(photos: outcomes), status: stored ? .created : .ok)
        }
    }

    func abandon() {
        state.withLock { state in
            state.ended = true
            dropCurrent(&state.parts)
        }
    }

    /// A file part cut short is of no use: unlike a tus upload, a form cannot be resumed.
    private func dropCurrent(_ parts: inout Parts) {
        guard let part = parts.current else { return }
        parts.current = nil
        part.file.close()
        service.discard(part.record.id)
    }
}
