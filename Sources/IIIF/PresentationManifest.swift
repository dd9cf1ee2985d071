import Observability

/// A IIIF Presentation API 3.0 Manifest: one Canvas per image, each painted by one image with its
/// Image API service, so that viewers such as Mirador and Universal Viewer can open it.
public struct PresentationManifest: Sendable {
    /// The Presentation API's context, also the `profile` of its JSON-LD media type.
    public static let context = "http://iiif.io/api/presentation/3/context.json"

    /// One image on its own canvas.
    public struct Canvas: Sendable {
        /// The canvas's URI; its page and annotation are named under it.
        public var id: String
        public var label: String
        /// The full image's size, which is also the canvas's.
        public var width: Int
        public var height: Int
        /// The image service's base URI (the `id` of its info.json).
        public var service: String
        /// The size `full/max` answers with (smaller than the canvas when the limits say so).
        public var maxWidth: Int
        public var maxHeight: Int
        /// A small JPEG for strips of thumbnails, and its size.
        public var thumbnail: String
        public var thumbnailWidth: Int
        public var thumbnailHeight: Int

        public init(id: String, label: String, width: Int, height: Int, service: String, maxWidth: Int, maxHeight: Int,
                    thumbnail: String, thumbnailWidth: Int, thumbnailHeight: Int) {
            self.id = id
            self.label = label
            self.width = width
            self.height = height
            self.service = service
            self.maxWidth = maxWidth
            self.maxHeight = maxHeight
            self.thumbnail = thumbnail
            self.thumbnailWidth = thumbnailWidth
            self.thumbnailHeight = thumbnailHeight
        }
    }

    public var id: String
    public var label: String
    public var canvases: [Canvas]

    public init(id: String, label: String, canvases: [Canvas]) {
        self.id = id
        self.label = label
        self.canvases = canvases
    }

    /// The document, `@context` first.
    public var json: String {
        var out = "{\"@context\":\"\(Self.context)\",\"id\":\(jsonString(id)),\"type\":\"Manifest\""
        out += ",\"label\":" + Self.language(label)
        out += ",\"items\":["
        for (n, canvas) in canvases.enumerated() {
            if n > 0 { out += "," }
            out += Self.json(canvas)
        }
        return out + "]}"
    }

    static func json(_ canvas: Canvas) -> String {
        let service = "[{\"id\":\(jsonString(canvas.service)),\"type\":\"ImageService3\",\"profile\":\"level2\"}]"
        var out = "{\"id\":\(jsonString(canvas.id)),\"type\":\"Canvas\",\"label\":" + language(canvas.label)
        out += ",\"width\":\(canvas.width),\"height\":\(canvas.height)"
        out += ",\"thumbnail\":[{\"id\":\(jsonString(canvas.thumbnail)),\"type\":\"Image\",\"format\":\"image/jpeg\""
        out += ",\"width\":\(canvas.thumbnailWidth),\"height\":\(canvas.thumbnailHeight)}]"
        out += ",\"items\":[{\"id\":\(jsonString(canvas.id + "/page")),\"type\":\"AnnotationPage\",\"items\":["
        out += "{\"id\":\(jsonString(canvas.id + "/page/image")),\"type\":\"Annotation\",\"motivation\":\"painting\""
        out += ",\"body\":{\"id\":\(jsonString(canvas.service + "/full/max/0/default.jpg")),\"type\":\"Image\""
        out += ",\"format\":\"image/jpeg\",\"width\":\(canvas.maxWidth),\"height\":\(canvas.maxHeight),\"service\":\(service)}"
        out += ",\"target\":\(jsonString(canvas.id))}]}]}"
        return out
    }

    /// A language map for text whose language is not known.
    static func language(_ text: String) -> String { "{\"none\":[\(jsonString(text))]}" }
}
