import Imaging

/// One photo of the catalog as the routes see it: an immutable snapshot.
public struct Photo: Sendable, Hashable {
    /// Stable id, never reused for another file.
    public var id: Int
    /// Path relative to the photos folder, e.g. `trips/photo3.jpg`.
    public var relativePath: String
    /// Absolute path of the source file.
    public var sourcePath: String
    /// The file name without its extension.
    public var title: String
    /// Size after EXIF orientation; 0 when the header could not be read.
    public var width: Int
    public var height: Int
    /// Content hash of the file plus the pyramid settings, 12 hex digits.
    public var version: String
    public var status: PhotoStatus
    /// Why the photo failed, in words a person understands; nil unless `status` is `.failed`.
    public var error: String?
    /// The clock reading when the photo was taken, in seconds since 1970 on that clock (the
    /// day it falls on is the day the owner remembers): from the file's header, else its
    /// modification time (in UTC).
    public var date: Int
    /// When it was taken as RFC 3339 (with the offset when known), and where that came from.
    public var taken: String
    public var takenSource: CaptureDate.Source
    /// The library's order: the clock reading in milliseconds, then the id.
    public var takenKey: Int64
    /// The `details` JSON object of `PhotoDetails` (position last), or nil until the header is read.
    public var details: String?

    public init(id: Int, relativePath: String, sourcePath: String, title: String, width: Int, height: Int,
                version: String, status: PhotoStatus, error: String? = nil, date: Int = 0,
                taken: CaptureDate? = nil, details: String? = nil) {
        self.id = id
        self.relativePath = relativePath
        self.sourcePath = sourcePath
        self.title = title
        self.width = width
        self.height = height
        self.version = version
        self.status = status
        self.error = error
        let taken = taken ?? CaptureDate(utcNanoseconds: date * 1_000_000_000)
        self.taken = taken.rfc3339
        self.takenSource = taken.source
        self.takenKey = taken.localMilliseconds
        let milliseconds = taken.localMilliseconds
        self.date = Int(milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000)
        self.details = details
    }

    /// Whether `self` comes before `other` in the library's order (date taken, then id).
    func isTaken(before other: Photo) -> Bool {
        takenKey != other.takenKey ? takenKey < other.takenKey : id < other.id
    }

    /// The folder it is in, relative to the photos folder ("" for the root): its album.
    public var folder: Substring {
        guard let slash = relativePath.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "" }
        return relativePath[..<slash]
    }

    /// The pyramid geometry, or nil when the size is unknown.
    public func pyramid(tileSize: Int) -> TilePyramid? {
        guard width > 0, height > 0 else { return nil }
        return TilePyramid(width: width, height: height, tileSize: tileSize)
    }

    /// The title for a file name: the last path component without its extension.
    static func title(for relativePath: String) -> String {
        let utf8 = relativePath.utf8
        let start = utf8.lastIndex(of: UInt8(ascii: "/")).map { utf8.index(after: $0) } ?? utf8.startIndex
        let name = utf8[start...]
        guard let dot = name.lastIndex(of: UInt8(ascii: ".")), dot != name.startIndex else { return String(Substring(name)) }
        return String(Substring(utf8[start..<dot]))
    }
}
