/// A single byte range from a `Range` header, resolved against a length.
enum ByteRange: Equatable {
    case satisfiable(Range<Int>)
    case unsatisfiable
    /// Not a single `bytes=` range we serve (multiple ranges, other units, bad syntax): answer 200.
    case ignore

    static func parse(_ header: String, length: Int) -> ByteRange {
        let text = header.trimmingWhitespace()
        guard text.lowercased().hasPrefix("bytes=") else { return .ignore }
        let spec = text.dropFirst(6).trimmingWhitespace()
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { return .ignore }
        let first = spec[..<dash].trimmingWhitespace(), last = spec[spec.index(after: dash)...].trimmingWhitespace()
        let allDigits: (String) -> Bool = { !$0.isEmpty && $0.utf8.count <= 18 && $0.utf8.allSatisfy { $0 >= 48 && $0 <= 57 } }
        if first.isEmpty {
            guard allDigits(last), let suffix = Int(last) else { return .ignore }
            guard suffix > 0, length > 0 else { return .unsatisfiable }
            return .satisfiable(max(0, length - suffix)..<length)
        }
        guard allDigits(first), let start = Int(first) else { return .ignore }
        var end = length - 1
        if !last.isEmpty {
            guard allDigits(last), let value = Int(last), value >= start else { return .ignore }
            end = min(value, length - 1)
        }
        guard start < length else { return .unsatisfiable }
        return .satisfiable(start..<(end + 1))
    }
}
