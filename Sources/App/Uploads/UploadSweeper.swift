import Foundation
import Synchronization

/// Removes expired uploads: once at start and then every minute, on a thread of its own. Every
/// replica sweeps; the uploads' claims keep two from removing the same one twice.
final class UploadSweeper: Service {
    let name = "upload-sweeper"
    private let uploads: UploadService
    private let interval: Double
    private let stopped = Mutex(false)
    private let wake = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private let running = Mutex(false)

    init(_ uploads: UploadService, intervalSeconds: Double = 60) {
        self.uploads = uploads
        self.interval = intervalSeconds
    }

    func start(fail: @escaping @Sendable (any Error) -> Void) throws {
        running.withLock { $0 = true }
        let thread = Thread { [self] in
            defer { finished.signal() }
            while !stopped.withLock({ $0 }) {
                uploads.sweepExpired()
                _ = wake.wait(timeout: .now() + interval)
            }
        }
        thread.name = "upload-sweeper"
        thread.start()
    }

    func shutDown(deadline: ContinuousClock.Instant) {
        stopped.withLock { $0 = true }
        wake.signal()
        if running.withLock({ $0 }) { _ = finished.wait(timeout: deadline.dispatchTime) }
    }
}
