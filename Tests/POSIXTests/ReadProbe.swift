import Foundation
import Glibc
import POSIX
import Synchronization
import XCTest

/// What the reader thread in the signal test shares with the test.
final class ReadProbe: Sendable {
    let thread = Mutex<pthread_t?>(nil)
    let attempts = Atomic<Int>(0)
    private let outcome = Mutex<Result<UInt8, SystemCallError>?>(nil)
    private let done = DispatchSemaphore(value: 0)

    func finish(_ result: Result<UInt8, SystemCallError>) {
        outcome.withLock { $0 = result }
        done.signal()
    }

    func wait() -> Result<UInt8, SystemCallError>? {
        guard done.wait(timeout: .now() + 10) == .success else { return nil }
        return outcome.withLock { $0 }
    }
}
