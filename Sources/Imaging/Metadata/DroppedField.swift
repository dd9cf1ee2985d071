/// A metadata field that was present but could not be used.
public struct DroppedField: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Where it came from, as the standards name it: "EXIF DateTimeOriginal", "XMP tiff:Make".
    public var field: String
    /// Why, in words: "is not a date (\"9999:99:99 99:99:99\")".
    public var reason: String

    public init(field: String, reason: String) {
        self.field = field
        self.reason = reason
    }

    public var description: String { "\(field) \(reason)" }
}
