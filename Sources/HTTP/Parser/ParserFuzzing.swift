/// The request parser's and the chunked decoder's contract, checked on any bytes: for the
/// libFuzzer target (`Sources/HTTPFuzz`, `make fuzz`) and for the tests that replay its corpus.
///
/// Besides never crashing, on every input:
/// - a complete head consumed at least one byte and no more than it was given, and the same
///   bytes up to that point parse to the same head;
/// - the outcome does not depend on how the bytes arrive: a prefix that is already complete or
///   already refused gives the same answer (same status) as the whole;
/// - the chunked decoder, fed the bytes in two pieces as a connection feeds it, decodes the same
///   body with the same outcome as in one piece, never more than its limit.
/// A broken rule stops the process (`precondition`), which libFuzzer reports as a crash.
public enum ParserFuzzing {
    /// Limits small enough that the fuzzer reaches every limit's edge quickly.
    static let smallLimits: HTTPLimits = {
        var limits = HTTPLimits()
        limits.maxRequestLineBytes = 64
        limits.maxHeaderBytes = 256
        limits.maxHeaderCount = 8
        return limits
    }()

    /// Checks every rule above on `data`; returns normally when all hold.
    public static func check(_ data: UnsafeRawBufferPointer) {
        let bytes = Array(data.bindMemory(to: UInt8.self))
        // The first byte picks where to split, so the fuzzer explores splits as it mutates.
        let split = bytes.isEmpty ? 0 : Int(bytes[0]) % (bytes.count + 1)
        for limits in [smallLimits, HTTPLimits()] {
            checkHead(bytes, split: split, limits: limits)
        }
        checkChunked(bytes, split: split, maxBodyBytes: 1 << 16)
        checkChunked(bytes, split: split, maxBodyBytes: 16)
    }

    /// A summary of a head's outcome that two parses can be compared by.
    enum Outcome: Equatable {
        /// `fields` holds every field as `name: value`, each value read back from the head.
        case complete(method: String, target: String, minor: Int, fields: [String], consumed: Int)
        case needMore
        case invalid(status: Int)
    }

    static func outcome(_ bytes: ArraySlice<UInt8>, limits: HTTPLimits) -> Outcome {
        let result = bytes.withUnsafeBufferPointer { RequestParser.parseHead($0, limits: limits) }
        switch result {
        case .needMore: return .needMore
        case .invalid(let error): return .invalid(status: error.status.rawValue)
        case .complete(let head, let consumed):
            return .complete(method: head.method.rawValue, target: head.target, minor: head.version.minor,
                             fields: head.headers.map { "\($0.name): \($0.value)" }, consumed: consumed)
        }
    }

    static func checkHead(_ bytes: [UInt8], split: Int, limits: HTTPLimits) {
        let whole = outcome(bytes[...], limits: limits)
        if case .complete(_, _, _, _, let consumed) = whole {
            precondition(consumed > 0 && consumed <= bytes.count, "consumed \(consumed) of \(bytes.count) bytes")
            precondition(outcome(bytes[0..<consumed], limits: limits) == whole, "the head alone parses differently")
        }
        let early = outcome(bytes[0..<split], limits: limits)
        switch early {
        case .needMore:
            break
        case .complete, .invalid:
            precondition(early == whole, "split at \(split): \(early) but whole \(whole)")
        }
    }

    static func checkChunked(_ bytes: [UInt8], split: Int, maxBodyBytes: Int) {
        let (wholeBody, wholeOutcome, wholeConsumed) = decode([bytes[...]], maxBodyBytes: maxBodyBytes)
        precondition(wholeConsumed <= bytes.count)
        precondition(wholeBody.count <= maxBodyBytes, "decoded \(wholeBody.count) bytes over a limit of \(maxBodyBytes)")
        let (splitBody, splitOutcome, splitConsumed) = decode([bytes[0..<split], bytes[split...]], maxBodyBytes: maxBodyBytes)
        precondition(splitOutcome == wholeOutcome, "chunked split at \(split): \(splitOutcome) but whole \(wholeOutcome)")
        precondition(splitBody == wholeBody, "chunked split at \(split) decoded another body")
        if wholeOutcome == .done { precondition(splitConsumed == wholeConsumed, "the body ended at another byte") }
    }

    enum ChunkedOutcome: Equatable {
        case needMore
        case done
        case invalid(status: Int)
    }

    /// Feeds `pieces` in order as a connection does: each time the unconsumed rest plus the new
    /// piece, until done or refused.
    static func decode(_ pieces: [ArraySlice<UInt8>], maxBodyBytes: Int) -> (body: [UInt8], outcome: ChunkedOutcome, consumed: Int) {
        var decoder = ChunkedDecoder(maxBodyBytes: maxBodyBytes)
        var body: [UInt8] = []
        var pending: [UInt8] = []
        var consumed = 0
        var outcome = ChunkedOutcome.needMore
        for piece in pieces {
            pending += piece
            let (used, result) = pending.withUnsafeBufferPointer { decoder.decode($0, into: &body) }
            precondition(used >= 0 && used <= pending.count, "the decoder used \(used) of \(pending.count) bytes")
            consumed += used
            pending.removeFirst(used)
            switch result {
            case .needMore: outcome = .needMore
            case .done: return (body, .done, consumed)
            case .invalid(let error): return (body, .invalid(status: error.status.rawValue), consumed)
            }
        }
        return (body, outcome, consumed)
    }
}
