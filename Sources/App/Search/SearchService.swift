import Comments

/// The search index's background work: started last, after the HTTP server has printed its
/// address (the indexer's thread logs whether place names were found) and the scans have begun,
/// so nothing of it delays the start; stopped first, waiting for the batch being written.
final class SearchService: Service {
    let name = "search"
    private let indexer: SearchIndexer
    private let comments: any CommentStore

    init(_ indexer: SearchIndexer, comments: any CommentStore) {
        self.indexer = indexer
        self.comments = comments
    }

    func start(fail: @escaping @Sendable (any Error) -> Void) throws { indexer.start(commentStore: comments) }

    func shutDown(deadline: ContinuousClock.Instant) { indexer.stop() }
}
