/// What a photo's file says about when, how and where it was taken: read from the header (EXIF,
/// and XMP and IPTC where present) without decoding a pixel, every field checked on its own.
///
/// A field that is missing is nil; a field that is present but broken (too long, a date that is
/// no date, a number out of range) is nil too, and `dropped` says which and why, so the reason
/// can be logged once and the photo shown all the same.
public struct PhotoMetadata: Sendable, Hashable, Codable {
    /// When the photo was taken; the file's modification time when the file does not say.
    public var taken: CaptureDate
    /// Camera maker and model as the camera spells them ("Apple", "iPhone 15 Pro").
    public var make: String?
    public var model: String?
    /// The lens, as its maker names it.
    public var lens: String?
    /// Focal length in millimetres, and its 35 mm film equivalent when the camera says.
    public var focalLength: Double?
    public var focalLength35mm: Int?
    /// The f-number (1.8 for ƒ1.8).
    public var aperture: Double?
    /// Exposure time in seconds.
    public var exposureTime: Double?
    /// ISO speed.
    public var iso: Int?
    /// Whether the flash fired; nil when the camera does not say or has no flash.
    public var flashFired: Bool?
    /// EXIF orientation 1–8, as applied to the tiles.
    public var orientation: Int
    /// Size of the original in pixels, upright (orientation applied).
    public var width: Int
    public var height: Int
    /// The file's size in bytes and its media type ("image/jpeg").
    public var fileSize: Int
    public var mediaType: String
    /// Where the photo was taken, if the file says. Read, but served only when the owner allows it.
    public var location: GeoLocation?
    /// Fields that were present but unusable, each with the reason.
    public var dropped: [DroppedField]

    public init(taken: CaptureDate, make: String? = nil, model: String? = nil, lens: String? = nil,
                focalLength: Double? = nil, focalLength35mm: Int? = nil, aperture: Double? = nil,
                exposureTime: Double? = nil, iso: Int? = nil, flashFired: Bool? = nil, orientation: Int = 1,
                width: Int = 0, height: Int = 0, fileSize: Int = 0, mediaType: String = "application/octet-stream",
                location: GeoLocation? = nil, dropped: [DroppedField] = []) {
        self.taken = taken
        self.make = make
        self.model = model
        self.lens = lens
        self.focalLength = focalLength
        self.focalLength35mm = focalLength35mm
        self.aperture = aperture
        self.exposureTime = exposureTime
        self.iso = iso
        self.flashFired = flashFired
        self.orientation = orientation
        self.width = width
        self.height = height
        self.fileSize = fileSize
        self.mediaType = mediaType
        self.location = location
        self.dropped = dropped
    }
}
