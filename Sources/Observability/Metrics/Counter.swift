import Foundation
import Synchronization

/// A counter family; each distinct label set is its own series.
public struct Counter: Sendable {
    let family: MetricFamily
    init(_ family: MetricFamily) { self.family = family }

    public func increment(by amount: Double = 1, _ labels: MetricLabels = []) {
        family.update(labels) { $0.value += amount }
    }

    /// The current value of one series (0 when it was never incremented).
    public func value(_ labels: MetricLabels = []) -> Double { family.value(labels) }

    /// A handle on one series: resolve it once, then each increment skips building its label key.
    public func series(_ labels: MetricLabels = []) -> CounterSeries { CounterSeries(cell: family.cell(labels)) }
}
