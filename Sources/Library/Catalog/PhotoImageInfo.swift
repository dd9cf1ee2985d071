import Imaging

/// The part of a photo that decides which image bytes answer for it: its version, size and status.
public struct PhotoImageInfo: Sendable, Hashable {
    /// Content hash of the file plus the pyramid settings, as `Photo.version`.
    public var version: String
    public var width: Int
    public var height: Int
    public var status: PhotoStatus

    public init(version: String, width: Int, height: Int, status: PhotoStatus) {
        self.version = version
        self.width = width
        self.height = height
        self.status = status
    }

    /// The facts of `photo`.
    public init(_ photo: Photo) {
        self.init(version: photo.version, width: photo.width, height: photo.height, status: photo.status)
    }

    /// The pyramid geometry, or nil when the size is unknown.
    public func pyramid(tileSize: Int) -> TilePyramid? {
        guard width > 0, height > 0 else { return nil }
        return TilePyramid(width: width, height: height, tileSize: tileSize)
    }
}
