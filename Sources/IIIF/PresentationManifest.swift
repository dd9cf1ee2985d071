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
        // Strings and whole numbers only: it always encodes.
        (try? JSONWriter.string(Document(self))) ?? "{}"
    }

    /// A language map for text whose language is not known: `{"none":[text]}`.
    struct Language: Encodable {
        let none: [String]
        init(_ text: String) { none = [text] }
    }

    /// The manifest's members, in the specification's order.
    struct Document: Encodable {
        let context = PresentationManifest.context
        let id: String
        var type = "Manifest"
        let label: Language
        let items: [CanvasDocument]

        enum CodingKeys: String, CodingKey {
            case context = "@context"
            case id, type, label, items
        }

        init(_ manifest: PresentationManifest) {
            id = manifest.id
            label = Language(manifest.label)
            items = manifest.canvases.map(CanvasDocument.init)
        }
    }

    /// One canvas, painted by one image with its service.
    struct CanvasDocument: Encodable {
        struct Service: Encodable {
            let id: String
            var type = "ImageService3"
            var profile = "level2"
        }

        struct Thumbnail: Encodable {
            let id: String
            var type = "Image"
            var format = "image/jpeg"
            let width: Int
            let height: Int
        }

        struct Page: Encodable {
            let id: String
            var type = "AnnotationPage"
            let items: [Annotation]
        }

        struct Annotation: Encodable {
            let id: String
            var type = "Annotation"
            var motivation = "painting"
            let body: Body
            let target: String
        }

        struct Body: Encodable {
            let id: String
            var type = "Image"
            var format = "image/jpeg"
            let width: Int
            let height: Int
            let service: [Service]
        }

        let id: String
        var type = "Canvas"
        let label: Language
        let width: Int
        let height: Int
        let thumbnail: [Thumbnail]
        let items: [Page]

        init(_ canvas: Canvas) {
            id = canvas.id
            label = Language(canvas.label)
            width = canvas.width
            height = canvas.height
            thumbnail = [Thumbnail(id: canvas.thumbnail, width: canvas.thumbnailWidth, height: canvas.thumbnailHeight)]
            let body = Body(id: canvas.service + "/full/max/0/default.jpg", width: canvas.maxWidth, height: canvas.maxHeight,
                            service: [Service(id: canvas.service)])
            items = [Page(id: canvas.id + "/page", items: [Annotation(id: canvas.id + "/page/image", body: body, target: canvas.id)])]
        }
    }
}
