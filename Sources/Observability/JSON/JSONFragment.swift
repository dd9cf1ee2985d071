/// JSON text written earlier and known to be one valid JSON value, copied into an answer as it
/// is (a photo's details are written once at ingest, so a page of records is a copy, not a parse).
/// Only `JSONWriter` writes it; another encoder throws.
public struct JSONFragment: Encodable, Sendable, Equatable {
    public let text: String

    /// `text` must be one JSON value written by `JSONWriter` (or escaped by `JSONEscaping`).
    public init(trusted text: String) { self.text = text }

    public func encode(to encoder: any Encoder) throws {
        guard let encoder = encoder as? JSONValueEncoder else {
            throw EncodingError.invalidValue(text, EncodingError.Context(codingPath: encoder.codingPath,
                                                                         debugDescription: "A JSONFragment is only written by JSONWriter."))
        }
        encoder.sink.raw(text)
    }
}
