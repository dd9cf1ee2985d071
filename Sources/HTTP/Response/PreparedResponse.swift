#if canImport(Glibc)
import Glibc
#endif

/// An open file whose descriptor closes when the last response using it is gone.
final class OpenFile: Sendable {
    let fd: Int32
    let size: Int

    init?(path: String) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            return nil
        }
        self.fd = fd
        self.size = Int(info.st_size)
    }

    deinit { close(fd) }
}

/// What follows a prepared head on the wire.
enum Payload: Sendable {
    case none
    case bytes([UInt8])
    case file(OpenFile, offset: Int, length: Int)
    case stream(@Sendable (ResponseStream) -> Void)
}

/// A response ready for the wire: conditional requests, ranges, compression and HEAD already
/// applied, file opened, length known. Built on whichever thread produced the response.
///
/// The fields live in one box: a prepared response travels through the event that delivers
/// it, the request's slot and the send action, and each step would otherwise retain and release
/// its headers, body and encoded fields.
struct PreparedResponse: Sendable {
    private final class Storage: @unchecked Sendable {
        // Changed only through `PreparedResponse`'s setters, after `isKnownUniquelyReferenced`.
        var status: HTTPStatus
        var headers: HTTPHeaders
        var payload: Payload
        var contentLength: Int?
        var closeAfter: Bool
        var encodedFields: [UInt8]?

        init(status: HTTPStatus, headers: HTTPHeaders, payload: Payload, contentLength: Int?, closeAfter: Bool, encodedFields: [UInt8]?) {
            self.status = status
            self.headers = headers
            self.payload = payload
            self.contentLength = contentLength
            self.closeAfter = closeAfter
            self.encodedFields = encodedFields
        }

        func copy() -> Storage {
            Storage(status: status, headers: headers, payload: payload, contentLength: contentLength, closeAfter: closeAfter,
                    encodedFields: encodedFields)
        }
    }

    private var storage: Storage

    private var uniqueStorage: Storage {
        mutating get {
            if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
            return storage
        }
    }

    var status: HTTPStatus {
        get { storage.status }
        set { uniqueStorage.status = newValue }
    }
    var headers: HTTPHeaders {
        get { storage.headers }
        set { uniqueStorage.headers = newValue }
    }
    var payload: Payload {
        get { storage.payload }
        set { uniqueStorage.payload = newValue }
    }
    /// The Content-Length to announce; nil for streams and for statuses that carry no body.
    var contentLength: Int? {
        get { storage.contentLength }
        set { uniqueStorage.contentLength = newValue }
    }
    /// The handler asked for `Connection: close`.
    var closeAfter: Bool {
        get { storage.closeAfter }
        set { uniqueStorage.closeAfter = newValue }
    }
    /// The header lines already encoded (`Content-Length` and the blank line included), for an
    /// answer from a cache; then `headers` and `contentLength` are not written again.
    var encodedFields: [UInt8]? {
        get { storage.encodedFields }
        set { uniqueStorage.encodedFields = newValue }
    }

    init(status: HTTPStatus, headers: HTTPHeaders, payload: Payload, contentLength: Int?, closeAfter: Bool = false,
         encodedFields: [UInt8]? = nil) {
        storage = Storage(status: status, headers: headers, payload: payload, contentLength: contentLength, closeAfter: closeAfter,
                          encodedFields: encodedFields)
    }

    /// Whether the payload is a long-lived stream.
    var isStream: Bool {
        if case .stream = payload { return true }
        return false
    }

    /// Body bytes that will actually be written (0 for HEAD and 304).
    var payloadLength: Int {
        switch payload {
        case .none, .stream: 0
        case .bytes(let bytes): bytes.count
        case .file(_, _, let length): length
        }
    }

    /// A problem+json answer that the server makes itself (parse errors, 404, 413 …).
    static func problem(_ error: HTTPResponseError, method: HTTPMethod? = nil) -> PreparedResponse {
        let response = error.response
        var headers = response.headers
        headers.set("Content-Type", "application/problem+json")
        headers.set("Vary", "Accept-Encoding")
        let bytes = response.bodyBytes ?? []
        return PreparedResponse(status: error.status, headers: headers, payload: method == .HEAD ? .none : .bytes(bytes),
                                contentLength: bytes.count)
    }
}
