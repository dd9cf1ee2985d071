import Observability

/// The image information document (`info.json`) of one image service, level 2.
public struct ImageInformation: Hashable, Sendable {
    /// The specification's context, the `profile` parameter of the JSON-LD media type.
    public static let context = "http://iiif.io/api/image/3/context.json"
    /// The profile document of level 2, for the `Link: <…>;rel="profile"` header.
    public static let profileDocument = "http://iiif.io/api/image/3/level2.json"
    /// Formats beyond level 2's jpg and png.
    public static let extraFormats: [ImageRequest.Format] = [.webp, .gif, .tif]
    /// Qualities beyond `default`.
    public static let extraQualities: [ImageRequest.Quality] = [.color, .gray, .bitonal]
    /// Features beyond level 2.
    public static let extraFeatures = ["canonicalLinkHeader", "mirroring", "profileLinkHeader", "rotationArbitrary", "sizeUpscaling"]

    /// The base URI of the service: scheme, server, prefix and identifier, no trailing slash.
    public var id: String
    public var width: Int
    public var height: Int
    /// Edge of the square tiles.
    public var tileSize: Int
    /// The scale factors at which whole tiles exist, smallest first (1 is full resolution).
    public var scaleFactors: [Int]
    /// Preferred full-image sizes, smallest first.
    public var sizes: [(width: Int, height: Int)]
    public var limits: ImageLimits

    /// `sizes` are kept only where `limits` allow them (the specification requires that).
    public init(id: String, width: Int, height: Int, tileSize: Int, scaleFactors: [Int],
                sizes: [(width: Int, height: Int)], limits: ImageLimits) {
        self.id = id
        self.width = width
        self.height = height
        self.tileSize = tileSize
        self.scaleFactors = scaleFactors
        self.sizes = sizes.filter { limits.allows(width: $0.width, height: $0.height) }.sorted { $0.width < $1.width }
        self.limits = limits
    }

    public static func == (lhs: ImageInformation, rhs: ImageInformation) -> Bool { lhs.json == rhs.json }
    public func hash(into hasher: inout Hasher) { hasher.combine(json) }

    /// The document, `@context` first, keys in the specification's order.
    public var json: String {
        // Strings and whole numbers only: it always encodes.
        (try? JSONWriter.string(Document(self))) ?? "{}"
    }

    /// The document's members, in the specification's order.
    struct Document: Encodable {
        struct Size: Encodable {
            var type = "Size"
            let width: Int
            let height: Int
        }

        struct Tile: Encodable {
            var type = "Tile"
            let width: Int
            let height: Int
            let scaleFactors: [Int]
        }

        let context = ImageInformation.context
        let id: String
        var type = "ImageService3"
        var `protocol` = "http://iiif.io/api/image"
        var profile = "level2"
        let width: Int
        let height: Int
        let maxWidth: Int?
        let maxHeight: Int?
        let maxArea: Int
        let sizes: [Size]?
        let tiles: [Tile]
        var preferredFormats = ["jpg"]
        let extraFormats = ImageInformation.extraFormats.map(\.rawValue)
        let extraQualities = ImageInformation.extraQualities.map(\.rawValue)
        let extraFeatures = ImageInformation.extraFeatures

        enum CodingKeys: String, CodingKey {
            case context = "@context"
            case id, type, `protocol`, profile, width, height, maxWidth, maxHeight, maxArea, sizes, tiles
            case preferredFormats, extraFormats, extraQualities, extraFeatures
        }

        init(_ info: ImageInformation) {
            id = info.id
            width = info.width
            height = info.height
            maxWidth = info.limits.maxWidth
            maxHeight = info.limits.maxWidth == nil ? nil : info.limits.maxHeight
            maxArea = info.limits.maxArea
            sizes = info.sizes.isEmpty ? nil : info.sizes.map { Size(width: $0.width, height: $0.height) }
            tiles = [Tile(width: info.tileSize, height: info.tileSize, scaleFactors: info.scaleFactors)]
        }
    }
}
