/// `SearchQuery.parse`'s contract, checked on any bytes: for the libFuzzer target
/// (`Sources/SearchQueryFuzz`, `make fuzz`) and for the tests that replay its corpus.
///
/// On every input, besides never crashing or hanging:
/// - a refusal says why, and is the right one: `malformed` only for bytes that are not UTF-8 or
///   hold a control character, `tooLong` only for more characters than the limit;
/// - an answer has at most the limit's terms, none twice, each with a match, and every word it
///   asks for is one the folding makes (letters and digits, never a quote, `*`, `:` or a space),
///   which is what keeps anything typed from being read as the engines' syntax;
/// - a query limited to no field can match nothing, and parsing is the same every time.
/// A broken rule stops the process (`precondition`), which libFuzzer reports as a crash.
public enum SearchQueryFuzzing {
    /// Checks every rule above on `data`; returns normally when all hold.
    public static func check(_ data: UnsafeRawBufferPointer) {
        let bytes = Array(data.bindMemory(to: UInt8.self))
        let limits = SearchQuery.Limits()
        let query: SearchQuery
        do {
            query = try SearchQuery.parse(utf8: bytes, limits: limits)
        } catch {
            precondition(!error.description.isEmpty, "a refusal without a reason")
            let text = String(validating: bytes, as: UTF8.self)
            switch error {
            case .malformed:
                precondition(text == nil || text!.unicodeScalars.contains(where: isControl), "a query refused as malformed that is text")
            case .tooLong(let limit):
                precondition(text.map { $0.count > limit } == true, "a query refused as too long that is not")
            case .tooManyWords(let limit):
                precondition(limit == limits.words, "a refusal that names another limit")
            }
            return
        }
        precondition(query.terms.count <= limits.words, "more terms than the limit")
        precondition(Set(query.terms).count == query.terms.count, "a term twice")
        for term in query.terms {
            precondition(!term.matches.isEmpty, "a term without a match")
            for match in term.matches {
                precondition(!match.word.isEmpty && match.word.unicodeScalars.allSatisfy(SearchFolding.isWordScalar),
                             "a word that is not letters and digits")
                precondition(!match.fields.isEmpty, "a match in no field")
            }
        }
        precondition(query.terms.isEmpty || query.limited(to: []).isUnanswerable, "a query that matches without a field")
        precondition((try? SearchQuery.parse(utf8: bytes, limits: limits)) == query, "parsed differently the second time")
    }

    /// The scalars `parse` refuses: C0 controls but tab, DEL and C1 controls.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        (scalar.value < 0x20 && scalar != "\t") || (0x7F...0x9F).contains(scalar.value)
    }
}
