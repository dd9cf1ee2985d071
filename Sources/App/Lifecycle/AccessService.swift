import Access

/// Hears the changes that end sessions and share links (from every replica), so what is kept
/// of them in memory is dropped at once; stopped before the databases close.
final class AccessService: Service {
    let name = "access"
    private let access: AccessControl

    init(_ access: AccessControl) { self.access = access }

    func start(fail: @escaping @Sendable (any Error) -> Void) throws { try access.start() }

    func shutDown(deadline: ContinuousClock.Instant) { access.stop() }
}
