import Foundation

/// The first error of work done in parallel.
// @unchecked Sendable: `first` is guarded by `lock`.
final class FirstFailure: @unchecked Sendable {
    private let lock = NSLock()
    private var first: Error?

    func record(_ error: Error) { lock.withLock { if first == nil { first = error } } }

    func check() throws { if let error = lock.withLock({ first }) { throw error } }
}
