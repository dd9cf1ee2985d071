/// Turning a handler's response into what goes on the wire, applied generically to every route:
/// files opened, If-None-Match / If-Modified-Since → 304, Range → 206/416, gzip, HEAD.
extension PreparedResponse {
    /// Bodies smaller than this are not worth a gzip header and a deflate call.
    static let minimumCompressibleBytes = 1024

    /// A cached answer: its encoded head fields for a plain GET or HEAD, the generic preparation otherwise.
    init(_ encoded: EncodedResponse, for request: HTTPRequest) {
        guard encoded.servesPlainly(request) else {
            self.init(encoded.response, for: request)
            return
        }
        self.init(sending: encoded, withBody: request.method != .HEAD)
    }

    init(_ response: HTTPResponse, for request: HTTPRequest) {
        if let encoded = response.encoded {
            self.init(encoded, for: request)
            return
        }
        var headers = response.headers
        let fields = ResponseFields(headers)
        // Mutate only when needed: the headers of a cached file are shared, and a write would copy them.
        var closeAfter = false
        if let connection = fields.connection {
            closeAfter = connection.lowercased().contains("close")
            headers.remove("Connection")
        }
        if fields.hasContentLength { headers.remove("Content-Length") }
        if fields.hasTransferEncoding { headers.remove("Transfer-Encoding") }
        var status = response.status
        var payload: Payload
        switch response.body {
        case .empty: payload = .none
        case .bytes(let bytes): payload = .bytes(bytes)
        case .stream(let start): payload = .stream(start)
        case .file(let path, let offset, let length):
            guard let file = OpenFile(path: path), offset >= 0, offset <= file.size else {
                self = .problem(HTTPError(.notFound, "No resource at \(request.path)."), method: request.method)
                return
            }
            payload = .file(file, offset: offset, length: min(length ?? (file.size - offset), file.size - offset))
        case .openFile(let file, let offset, let length):
            guard offset >= 0, offset <= file.size else {
                self = .problem(HTTPError(.notFound, "No resource at \(request.path)."), method: request.method)
                return
            }
            payload = .file(file, offset: offset, length: min(length ?? (file.size - offset), file.size - offset))
        case .confinedFile(let root, let path):
            guard let file = OpenFile(beneath: root, path: path) else {
                self = .problem(HTTPError(.notFound, "No resource at \(request.path)."), method: request.method)
                return
            }
            payload = .file(file, offset: 0, length: file.size)
        }

        let isRead = request.method == .GET || request.method == .HEAD
        let contentType = fields.contentType ?? ""
        let compressible = MediaType.isCompressible(contentType)
        // Caches must know the answer depends on Accept-Encoding whenever it could be gzipped.
        if compressible && !fields.hasVary { headers.add("Vary", "Accept-Encoding") }
        if isRead && status == .ok {
            let asked = request.noted.isDisjoint(with: .shapingAnswer) ? RequestFields() : RequestFields(request.headers)
            let rangeRequested = asked.range != nil
            var gzip = false
            if compressible, !rangeRequested, !fields.hasContentEncoding, case .bytes(let bytes) = payload,
               bytes.count >= Self.minimumCompressibleBytes, Self.acceptsGzip(asked.acceptEncoding) {
                gzip = true
                if let tag = fields.entityTag { headers.set("ETag", EntityTag.variant(tag, suffix: "gzip")) }
            }
            if asked.isConditional && Self.isNotModified(request: request.headers, response: headers) {
                self.init(status: .notModified, headers: Self.notModifiedHeaders(headers), payload: .none, contentLength: nil, closeAfter: closeAfter)
                return
            }
            if !fields.hasContentEncoding {
                let total: Int? = switch payload {
                case .bytes(let bytes): bytes.count
                case .file(_, _, let length): length
                default: nil
                }
                if let total {
                    if fields.acceptRanges != "bytes" { headers.set("Accept-Ranges", "bytes") }
                    if let range = asked.range, Self.ifRangeAllows(asked.ifRange, response: headers) {
                        switch ByteRange.parse(range, length: total) {
                        case .ignore:
                            break
                        case .unsatisfiable:
                            var problem = PreparedResponse.problem(HTTPError(.rangeNotSatisfiable, "The range is outside the \(total) bytes of this resource.",
                                                                              headers: ["Content-Range": "bytes */\(total)"]), method: request.method)
                            problem.closeAfter = closeAfter
                            self = problem
                            return
                        case .satisfiable(let slice):
                            status = .partialContent
                            headers.set("Content-Range", "bytes \(slice.lowerBound)-\(slice.upperBound - 1)/\(total)")
                            switch payload {
                            case .bytes(let bytes): payload = .bytes(Array(bytes[slice]))
                            case .file(let file, let offset, _): payload = .file(file, offset: offset + slice.lowerBound, length: slice.count)
                            default: break
                            }
                        }
                    }
                }
            }
            if gzip, case .bytes(let bytes) = payload, let compressed = Gzip.compress(bytes) {
                headers.set("Content-Encoding", "gzip")
                payload = .bytes(compressed)
            } else if gzip, let tag = headers["ETag"] {
                headers.set("ETag", EntityTag.removingVariant(tag, suffix: "gzip"))
            }
        } else if !isRead && (status == .ok || status == .created), compressible, !headers.contains("Content-Encoding"),
                  case .bytes(let bytes) = payload, bytes.count >= Self.minimumCompressibleBytes,
                  Self.acceptsGzip(request.headers["Accept-Encoding"]), let compressed = Gzip.compress(bytes) {
            // Answers to POST and friends are compressed too; they have no validators or ranges to mind.
            headers.set("Content-Encoding", "gzip")
            payload = .bytes(compressed)
        }

        var contentLength: Int?
        switch payload {
        case .none: contentLength = 0
        case .bytes(let bytes): contentLength = bytes.count
        case .file(_, _, let length): contentLength = length
        case .stream: contentLength = nil
        }
        if status.rawValue < 200 || status == .noContent || status == .notModified {
            contentLength = nil
            payload = .none
        }
        if request.method == .HEAD { payload = .none }
        self.init(status: status, headers: headers, payload: payload, contentLength: contentLength, closeAfter: closeAfter)
    }

    /// RFC 9110 §13.1.2 and §13.1.3: If-None-Match (weak comparison) wins over If-Modified-Since.
    static func isNotModified(request: HTTPHeaders, response: HTTPHeaders) -> Bool {
        if let condition = request["If-None-Match"] {
            guard let tag = response["ETag"] else { return false }
            return EntityTag.matches(list: condition, tag: tag, weak: true)
        }
        if let since = request["If-Modified-Since"], let modified = response["Last-Modified"],
           let sinceSeconds = HTTPDate.parse(since), let modifiedSeconds = HTTPDate.parse(modified) {
            return modifiedSeconds <= sinceSeconds
        }
        return false
    }

    /// If-Range: a strong ETag that matches exactly, or the exact Last-Modified date.
    static func ifRangeAllows(_ condition: String?, response: HTTPHeaders) -> Bool {
        guard let condition = condition?.trimmingWhitespace() else { return true }
        if condition.hasPrefix("\"") || condition.hasPrefix("W/") {
            guard let tag = response["ETag"] else { return false }
            return EntityTag.matches(list: condition, tag: tag, weak: false)
        }
        guard let modified = response["Last-Modified"], let a = HTTPDate.parse(condition), let b = HTTPDate.parse(modified) else { return false }
        return a == b
    }

    /// A 304 keeps the validators and caching headers the 200 would have carried (RFC 9110 §15.4.5).
    static func notModifiedHeaders(_ headers: HTTPHeaders) -> HTTPHeaders {
        let kept = ["ETag", "Cache-Control", "Vary", "Expires", "Content-Location", "Last-Modified"]
        return HTTPHeaders(headers.filter { field in kept.contains { $0.caseInsensitiveEquals(field.name) } }.map { ($0.name, $0.value) })
    }

    /// Whether `Accept-Encoding` admits gzip with a non-zero quality.
    static func acceptsGzip(_ header: String?) -> Bool {
        guard var header else { return false }
        return header.withUTF8 { acceptsGzip(bytes: $0) }
    }

    /// `acceptsGzip` over the field's bytes: codings split at `,`, parameters at `;`, each
    /// piece trimmed of spaces and tabs, empty pieces skipped; the first `gzip` or `x-gzip`
    /// decides, else the last `*`. Browsers send this with every request, so it is read in place:
    /// splitting and lowercasing strings cost some 8 500 instructions per request.
    static func acceptsGzip(bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        @inline(__always) func isSpace(_ byte: UInt8) -> Bool { byte == 32 || byte == 9 }
        @inline(__always) func spells(_ range: Range<Int>, _ word: StaticString) -> Bool {
            guard range.count == word.utf8CodeUnitCount else { return false }
            for (offset, expected) in UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount).enumerated() {
                let byte = bytes[range.lowerBound + offset]
                if (byte >= 65 && byte <= 90 ? byte | 0x20 : byte) != expected { return false }
            }
            return true
        }
        var wildcard: Bool?
        var part = 0
        while part < bytes.count {
            let partEnd = bytes[part...].firstIndex(of: UInt8(ascii: ",")) ?? bytes.count
            var coding: Range<Int>?
            var quality = 1.0
            var piece = part
            while piece < partEnd {
                let pieceEnd = bytes[piece..<partEnd].firstIndex(of: UInt8(ascii: ";")) ?? partEnd
                if pieceEnd > piece {
                    var lower = piece, upper = pieceEnd
                    while lower < upper, isSpace(bytes[lower]) { lower += 1 }
                    while upper > lower, isSpace(bytes[upper - 1]) { upper -= 1 }
                    if coding == nil {
                        coding = lower..<upper
                    } else if upper - lower >= 2, bytes[lower] | 0x20 == UInt8(ascii: "q"), bytes[lower + 1] == UInt8(ascii: "=") {
                        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[(lower + 2)..<upper]), as: UTF8.self)
                        quality = Double(text.lowercased()) ?? 1
                    }
                }
                piece = pieceEnd + 1
            }
            if let coding {
                if spells(coding, "gzip") || spells(coding, "x-gzip") { return quality > 0 }
                if spells(coding, "*") { wildcard = quality > 0 }
            }
            part = partEnd + 1
        }
        return wildcard ?? false
    }
}

