/// How far each stage of the ingest is: photos with their thumbnail (first stage) and with
/// their pyramid, out of the photos that can be shown.
public struct IngestStages: Sendable, Equatable {
    public var photos: Int
    public var thumbnails: Int
    public var pyramids: Int
    /// Jobs queued or running, by stage.
    public var queuedFirst: Int
    public var queuedPyramids: Int

    public init(photos: Int, thumbnails: Int, pyramids: Int, queuedFirst: Int, queuedPyramids: Int) {
        self.photos = photos
        self.thumbnails = thumbnails
        self.pyramids = pyramids
        self.queuedFirst = queuedFirst
        self.queuedPyramids = queuedPyramids
    }

    /// One sentence while some stage is not done, for `/readyz`; nil once every photo is built.
    public var summary: String? {
        guard pyramids < photos else { return nil }
        return "Ingest: thumbnails \(thumbnails) of \(photos) photos, pyramids \(pyramids) of \(photos)."
    }
}
