import HTTP

/// The worker lanes of the application: each kind of blocking work has threads of its own, so a
/// flood of tile renders cannot hold up the photo list or a comment being posted.
enum WorkLanes {
    /// Photo listings and records.
    static let catalog = WorkLane("catalog")
    /// Comment reads, posts and deletions (SQLite, fsync).
    static let comments = WorkLane("comments")
    /// Tiles and thumbnails read from disk or rendered on demand (libvips).
    static let images = WorkLane("images")
    /// Upload bodies written to disk, and their completion (fsync, header check, the move into the photos folder).
    static let uploads = WorkLane("uploads")
    /// IIIF renditions: any region, size or turn that is not a pyramid tile. The costly kind
    /// anyone can ask for, so it has a budget of its own and never holds up the lanes above.
    static let renders = WorkLane("renders")
    /// Signing in, setup, share links: Argon2 takes a quarter of a second and 64 MiB each, so
    /// two threads bound what a flood of sign-ins can take.
    static let access = WorkLane("access")

    /// Threads per lane from the configuration; 0 means the default stated on each key.
    static func threads(_ configuration: Configuration, cores: Int) -> [WorkLane: Int] {
        [
            catalog: configuration.catalogWorkers == 0 ? 2 : configuration.catalogWorkers,
            comments: configuration.commentWorkers == 0 ? 2 : configuration.commentWorkers,
            images: configuration.imageWorkers == 0 ? max(2, cores) : configuration.imageWorkers,
            uploads: configuration.uploadWorkers == 0 ? 4 : configuration.uploadWorkers,
            renders: configuration.iiifRenderWorkers == 0 ? max(1, cores / 2) : configuration.iiifRenderWorkers,
            access: 2,
        ]
    }

    /// What the lanes take on before refusing: only renders have a budget.
    static func budgets(_ configuration: Configuration) -> [WorkLane: LaneBudget] {
        [renders: LaneBudget(maxQueuedPerClient: configuration.iiifQueuePerClient, maxQueued: configuration.iiifQueue,
                             maxCostInFlight: configuration.iiifRenderPixels, maxWaitSeconds: configuration.iiifRenderSeconds)]
    }
}
