import Foundation
import Synchronization

/// A gauge family.
public struct Gauge: Sendable {
    let family: MetricFamily
    init(_ family: MetricFamily) { self.family = family }

    public func set(_ value: Double, _ labels: MetricLabels = []) { family.update(labels) { $0.value = value } }
    public func add(_ amount: Double, _ labels: MetricLabels = []) { family.update(labels) { $0.value += amount } }
    public func value(_ labels: MetricLabels = []) -> Double { family.value(labels) }
}
