import Foundation
import TestSupport

extension Process {
    /// Waits until the process has ended, for a child the test has just killed.
    ///
    /// Foundation's `waitUntilExit` waits for its own record of the child's end, and on Linux
    /// that record can be missed: once, under load, a test's teardown waited there for minutes
    /// after its SIGKILL, with the child already gone from the process table. This also looks at
    /// the process table, where a pid that is gone, or only a zombie, has ended. Once it has,
    /// Foundation is given 10 s to see it too (its exit status is read from there), and no more.
    func waitForEnd() {
        let pid = processIdentifier
        // As long as Foundation would wait (a test that hangs here shows a child that never ends).
        eventually(timeout: .greatestFiniteMagnitude, every: 0.005) { !isRunning || Self.hasEnded(pid) }
        eventually(timeout: 10, every: 0.005) { !isRunning }
    }

    /// Whether `pid` is gone from /proc or only a zombie waiting to be reaped.
    static func hasEnded(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return true }
        // The state is the field after the command, which is in parentheses and may hold spaces.
        let state = stat[stat.index(after: close)...].split(separator: " ").first
        return state == "Z" || state == "X"
    }
}
