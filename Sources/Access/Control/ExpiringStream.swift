import HTTP

/// A stream whose access expires at `endsAt`: a write after that is refused and closes it, so
/// nothing written after the expiry goes out even before the sweep (`AccessBoundStreams.sweep`)
/// comes round to close it.
final class ExpiringStream: ResponseStream {
    private let base: any ResponseStream
    /// Wall-clock unix seconds.
    private let endsAt: Int
    private let wallNow: @Sendable () -> Int

    init(_ base: any ResponseStream, endsAt: Int, wallNow: @escaping @Sendable () -> Int) {
        self.base = base
        self.endsAt = endsAt
        self.wallNow = wallNow
    }

    @discardableResult
    func write(_ bytes: [UInt8]) -> Bool {
        guard wallNow() < endsAt else {
            base.close()
            return false
        }
        return base.write(bytes)
    }

    func close() { base.close() }
    var isClosed: Bool { base.isClosed }
    func onClose(_ callback: @escaping @Sendable () -> Void) { base.onClose(callback) }
    func whenDrained(_ callback: @escaping @Sendable () -> Void) { base.whenDrained(callback) }
}
