/// An image as the cache hands it out: its bytes, the photo version they are of, and the stamp
/// of the entry that holds them.
public struct CachedImage: Sendable {
    /// The image, shared with the cache (copy-on-write, so never copied here).
    public let bytes: [UInt8]
    /// The photo version the bytes are of (`TileKey.version`).
    public let version: String
    /// Names this one entry: an image stored again (re-rendered, or evicted and read back) gets
    /// another stamp.
    public let stamp: ImageStamp
}
