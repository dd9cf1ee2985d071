/// A photo's size in pixels after EXIF orientation.
public struct PhotoSize: Hashable, Sendable {
    public var width: Int
    public var height: Int
    public init(width: Int, height: Int) { self.width = width; self.height = height }
}
