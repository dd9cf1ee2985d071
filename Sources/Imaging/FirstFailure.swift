import Synchronization

/// The first error of work done in parallel.
final class FirstFailure: Sendable {
    private let first = Mutex<Error?>(nil)

    func record(_ error: Error) { first.withLock { if $0 == nil { $0 = error } } }

    func check() throws { if let error = first.withLock({ $0 }) { throw error } }
}
