import Foundation

/// Waits until `condition` holds, checking every `interval` seconds (20 ms), for at most
/// `timeout` seconds; whether it held. For what a test cannot be told of when it happens
/// (another thread's or process's work). The default is generous: a loaded machine (several
/// test processes and browsers on two cores) is many times slower than a quiet one, and a wait
/// that ends when the condition holds costs nothing more for being long. A condition that
/// itself blocks for a while (a read with a timeout) needs no pause between checks: `interval` 0.
@discardableResult
public func eventually(timeout: Double = 30, every interval: Double = 0.02, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if try condition() { return true }
        if interval > 0 { usleep(UInt32(interval * 1_000_000)) }
    }
    return try condition()
}
