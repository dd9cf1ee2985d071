import Foundation
import Synchronization

/// Something that counts in memory of its own and adds its counts to a registry's metrics in
/// batches: the registry calls `collect` before every render, so a scrape sees every count.
public protocol MetricsCollector: AnyObject, Sendable {
    /// Adds everything counted since the last call to the registry's metrics.
    func collect()
}
