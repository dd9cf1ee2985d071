import Library

/// Hears the changes to albums, favourites and the trash (from every replica on the database),
/// which open views follow live; stopped before the databases close.
final class CollectionService: Service {
    let name = "collections"
    private let collection: any PhotoCollections

    init(_ collection: any PhotoCollections) { self.collection = collection }

    func start(fail: @escaping @Sendable (any Error) -> Void) throws { try collection.startHearing() }

    func shutDown(deadline: ContinuousClock.Instant) { collection.stopHearing() }
}
