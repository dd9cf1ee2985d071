/// An upload's name: 128 random bits from the kernel (`getrandom`), as 32 lowercase hex digits.
/// The upload's URL carries it, so it must not be guessable.
public struct UploadID: Hashable, Sendable, CustomStringConvertible {
    public let text: String

    /// A fresh id.
    public init() {
        text = randomBytes(16).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    /// An id from a URL, or nil when it is not one this server could have made.
    public init?(_ text: String) {
        guard text.utf8.count == 32, text.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }) else { return nil }
        self.text = text
    }

    public var description: String { text }
}
