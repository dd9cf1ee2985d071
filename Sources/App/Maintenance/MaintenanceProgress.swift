import Foundation
import POSIX

/// Progress of a backup or restore, one line per table, on standard error when it is a terminal
/// (a cron job's mail stays quiet).
enum MaintenanceProgress {
    static func line(_ text: String) {
        guard System.isTerminal(2) else { return }
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}
