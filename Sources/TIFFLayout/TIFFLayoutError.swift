/// Why a TIFF's directories cannot be trusted to serve its tiles in place. Each says what is
/// wrong with the file; the photo is then built as any other, or fails on its own.
public enum TIFFLayoutError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Not a TIFF at all: no byte order mark or version.
    case notTIFF
    /// A directory, entry or array points past the end of the file.
    case pastTheEnd(String)
    /// A directory is reached twice: the chain of directories loops.
    case loop(offset: Int)
    /// More directories, entries or tiles than any real pyramid has.
    case tooMany(String)
    /// A level's size, tile grid or arrays do not agree with one another or with the level above.
    case inconsistent(String)

    public var description: String {
        switch self {
        case .notTIFF: "not a TIFF"
        case .pastTheEnd(let what): "\(what) points past the end of the file"
        case .loop(let offset): "its directories loop (the one at \(offset) is reached twice)"
        case .tooMany(let what): "too many \(what)"
        case .inconsistent(let what): "its levels do not add up: \(what)"
        }
    }
}
