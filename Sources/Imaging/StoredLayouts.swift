import Synchronization
import TIFFLayout

/// The layouts of the TIFFs read lately, by file identity; nil for a file that is no pyramid.
final class StoredLayouts: Sendable {
    struct Key: Hashable {
        var name: String
        var inode: UInt64
        var size: Int
        var modified: Int
    }

    /// Files remembered at most; past it, all are forgotten (a few reads each to learn again).
    static let capacity = 512
    private let entries = Mutex<[Key: TIFFPyramidLayout?]>([:])

    subscript(key: Key) -> TIFFPyramidLayout?? {
        get { entries.withLock { $0[key] } }
        set {
            entries.withLock { entries in
                if entries.count >= Self.capacity { entries.removeAll(keepingCapacity: true) }
                entries[key] = newValue ?? nil
            }
        }
    }
}
