import Synchronization

/// The devices the folders of the last scans were on: where photos may be read from. Empty
/// until a scan has run (a restart serves its stored catalog first); then inodes alone decide.
final class ScannedDevices: Sendable {
    private let devices = Mutex<Set<Int>>([])

    /// What a scan walked: all of it after a full scan, added to what was there after a partial one.
    func record(_ walked: Set<Int>, replacing: Bool) {
        devices.withLock { $0 = replacing ? walked : $0.union(walked) }
    }

    func allows(_ device: Int) -> Bool { devices.withLock { $0.isEmpty || $0.contains(device) } }
}
