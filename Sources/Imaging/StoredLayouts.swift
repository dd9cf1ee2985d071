import Foundation
import TIFFLayout

/// The layouts of the TIFFs read lately, by file identity; nil for a file that is no pyramid.
// @unchecked Sendable: `entries` is only touched under `lock`.
final class StoredLayouts: @unchecked Sendable {
    struct Key: Hashable {
        var name: String
        var inode: UInt64
        var size: Int
        var modified: Int
    }

    /// Files remembered at most; past it, all are forgotten (a few reads each to learn again).
    static let capacity = 512
    private let lock = NSLock()
    private var entries: [Key: TIFFPyramidLayout?] = [:]

    subscript(key: Key) -> TIFFPyramidLayout?? {
        get { lock.withLock { entries[key] } }
        set {
            lock.withLock {
                if entries.count >= Self.capacity { entries.removeAll(keepingCapacity: true) }
                entries[key] = newValue ?? nil
            }
        }
    }
}
