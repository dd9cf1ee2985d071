/// One IIIF Image API 3.0 image request, as its URL spells it:
/// `{region}/{size}/{rotation}/{quality}.{format}` after the identifier.
///
/// A value parsed from the grammar and nothing more: what it means for one image (which pixels,
/// what output size, whether it is allowed) is `resolved(width:height:limits:)`.
public struct ImageRequest: Hashable, Sendable {
    public var region: Region
    public var size: Size
    public var rotation: Rotation
    public var quality: Quality
    public var format: Format

    public init(region: Region = .full, size: Size = Size(.max), rotation: Rotation = Rotation(),
                quality: Quality = .default, format: Format = .jpg) {
        self.region = region
        self.size = size
        self.rotation = rotation
        self.quality = quality
        self.format = format
    }

    /// The rectangle of the full image to return.
    public enum Region: Hashable, Sendable {
        /// The whole image.
        case full
        /// The largest centred square.
        case square
        /// Absolute pixels; width and height are positive.
        case pixels(x: Int, y: Int, width: Int, height: Int)
        /// Percentages of the full image's width and height; width and height are positive.
        case percent(x: Double, y: Double, width: Double, height: Double)
    }

    /// The size the region is scaled to, and whether it may be scaled up (`^`).
    public struct Size: Hashable, Sendable {
        public enum Form: Hashable, Sendable {
            /// As large as the region, or the limits, allow.
            case max
            /// This width, the height following the aspect ratio (`w,`).
            case width(Int)
            /// This height, the width following the aspect ratio (`,h`).
            case height(Int)
            /// This percentage of the region's width and height (`pct:n`).
            case percent(Double)
            /// Exactly this width and height, distorting if need be (`w,h`).
            case exact(width: Int, height: Int)
            /// As large as fits inside this box, keeping the aspect ratio (`!w,h`).
            case confined(width: Int, height: Int)
        }

        public var form: Form
        /// `^`: the region may be scaled up.
        public var upscaling: Bool

        public init(_ form: Form, upscaling: Bool = false) {
            self.form = form
            self.upscaling = upscaling
        }
    }

    /// Mirroring (`!`, across the vertical axis, before rotating) and clockwise rotation in degrees.
    public struct Rotation: Hashable, Sendable {
        public var mirrored: Bool
        /// 0 through 360.
        public var degrees: Double

        public init(mirrored: Bool = false, degrees: Double = 0) {
            self.mirrored = mirrored
            self.degrees = degrees
        }

        /// Whether the angle is a multiple of 90.
        public var isQuarterTurns: Bool { degrees.truncatingRemainder(dividingBy: 90) == 0 }
    }

    /// The colour of the result.
    public enum Quality: String, Hashable, Sendable, CaseIterable {
        /// The server's choice: colour, for photos.
        case `default`
        case color
        case gray
        /// Every pixel black or white.
        case bitonal
    }

    /// The encoding of the result, by the extension the URL ends in.
    public enum Format: String, Hashable, Sendable, CaseIterable {
        case jpg, png, webp, gif, tif

        /// The media type of the answer.
        public var mediaType: String {
            switch self {
            case .jpg: "image/jpeg"
            case .png: "image/png"
            case .webp: "image/webp"
            case .gif: "image/gif"
            case .tif: "image/tiff"
            }
        }
    }
}
