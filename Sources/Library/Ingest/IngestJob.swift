/// One piece of ingest work: a photo in one version, at one stage.
struct IngestJob: Hashable, Sendable {
    var photoID: Int
    var version: String
    var stage: IngestStage
    /// Width × height (0 when not known yet), so small photos are built first and show as ready soonest.
    var pixels: Int
    /// When the job was queued; not part of its identity.
    var queuedAt: ContinuousClock.Instant

    init(photoID: Int, version: String, pixels: Int, stage: IngestStage = .pyramid, queuedAt: ContinuousClock.Instant = .now) {
        self.photoID = photoID
        self.version = version
        self.stage = stage
        self.pixels = pixels
        self.queuedAt = queuedAt
    }

    static func == (a: IngestJob, b: IngestJob) -> Bool { a.photoID == b.photoID && a.version == b.version && a.stage == b.stage }

    func hash(into hasher: inout Hasher) {
        hasher.combine(photoID)
        hasher.combine(version)
        hasher.combine(stage)
    }
}
