/// A response ready for the wire: conditional requests, ranges, compression and HEAD already
/// applied, file opened, length known. Built on whichever thread produced the response.
///
/// The fields live in one box: a prepared response travels through the event that delivers
/// it, the request's slot and the send action, and each step would otherwise retain and release
/// its headers, body and encoded fields. A cached answer sent as it is needs no box of its
/// own: it is the encoded response itself, with or without its body (HEAD).
struct PreparedResponse: Sendable {
    // @unchecked Sendable: copy-on-write storage: changed only through `PreparedResponse`'s setters, while uniquely referenced.
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

    private enum Representation {
        case boxed(Storage)
        /// A cached answer as it is; `withBody` false for HEAD.
        case encoded(EncodedResponse, withBody: Bool)
    }

    private var representation: Representation

    /// The box, made unique first (and made at all, for an encoded answer) so that a change
    /// never shows through another copy.
    private var uniqueStorage: Storage {
        mutating get {
            switch representation {
            case .boxed(var storage):
                if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
                representation = .boxed(storage)
                return storage
            case .encoded:
                let storage = Storage(status: status, headers: headers, payload: payload, contentLength: contentLength,
                                      closeAfter: closeAfter, encodedFields: encodedFields)
                representation = .boxed(storage)
                return storage
            }
        }
    }

    /// A field from the box, or as the encoded answer gives it.
    @inline(__always)
    private func read<Value>(_ boxed: (Storage) -> Value, _ encoded: (EncodedResponse, _ withBody: Bool) -> Value) -> Value {
        switch representation {
        case .boxed(let storage): boxed(storage)
        case .encoded(let answer, let withBody): encoded(answer, withBody)
        }
    }

    var status: HTTPStatus {
        get { read({ $0.status }, { answer, _ in answer.status }) }
        set { uniqueStorage.status = newValue }
    }
    var headers: HTTPHeaders {
        get { read({ $0.headers }, { answer, _ in answer.response.headers }) }
        set { uniqueStorage.headers = newValue }
    }
    var payload: Payload {
        get { read({ $0.payload }, { answer, withBody in withBody ? .bytes(answer.body) : .none }) }
        set { uniqueStorage.payload = newValue }
    }
    /// The Content-Length to announce; nil for streams and for statuses that carry no body.
    var contentLength: Int? {
        get { read({ $0.contentLength }, { answer, _ in answer.body.count }) }
        set { uniqueStorage.contentLength = newValue }
    }
    /// The handler asked for `Connection: close`.
    var closeAfter: Bool {
        get { read({ $0.closeAfter }, { _, _ in false }) }
        set { uniqueStorage.closeAfter = newValue }
    }
    /// The header lines already encoded (`Content-Length` and the blank line included), for an
    /// answer from a cache; then `headers` and `contentLength` are not written again.
    var encodedFields: [UInt8]? {
        get { read({ $0.encodedFields }, { answer, _ in answer.fieldLines }) }
        set { uniqueStorage.encodedFields = newValue }
    }

    init(status: HTTPStatus, headers: HTTPHeaders, payload: Payload, contentLength: Int?, closeAfter: Bool = false,
         encodedFields: [UInt8]? = nil) {
        representation = .boxed(Storage(status: status, headers: headers, payload: payload, contentLength: contentLength,
                                        closeAfter: closeAfter, encodedFields: encodedFields))
    }

    /// A cached answer sent exactly as encoded, with its body or (for HEAD) without.
    init(sending encoded: EncodedResponse, withBody: Bool) {
        representation = .encoded(encoded, withBody: withBody)
    }

    /// The cached answer this sends as it is, and whether with its body; nil for any other.
    var sentAsEncoded: (answer: EncodedResponse, withBody: Bool)? {
        if case .encoded(let answer, let withBody) = representation { return (answer, withBody) }
        return nil
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
