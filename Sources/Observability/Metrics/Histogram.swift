import Foundation
import Synchronization

/// A histogram family.
public struct Histogram: Sendable {
    /// Seconds, from 0.5 ms to 10 s: request latencies and render times.
    public static let defaultBuckets: [Double] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

    let family: MetricFamily
    init(_ family: MetricFamily) { self.family = family }

    public func observe(_ value: Double, _ labels: MetricLabels = []) {
        guard case .histogram(let bounds) = family.kind else { return }
        family.update(labels) { Self.record(value, bounds: bounds, into: &$0) }
    }

    /// The upper bounds of the buckets, in order (the `+Inf` bucket is implied).
    public var bucketBounds: [Double] {
        if case .histogram(let bounds) = family.kind { return bounds }
        return []
    }

    /// How many observations one series has.
    public func count(_ labels: MetricLabels = []) -> UInt64 { family.snapshot(labels)?.count ?? 0 }

    /// A handle on one series: resolve it once, then each observation skips building its label key.
    public func series(_ labels: MetricLabels = []) -> HistogramSeries {
        guard case .histogram(let bounds) = family.kind else { return HistogramSeries(cell: family.cell(labels), bounds: []) }
        return HistogramSeries(cell: family.cell(labels), bounds: bounds)
    }

    static func record(_ value: Double, bounds: [Double], into series: inout MetricFamily.Series) {
        if series.bucketCounts.isEmpty { series.bucketCounts = Array(repeating: 0, count: bounds.count) }
        if let index = bounds.firstIndex(where: { value <= $0 }) { series.bucketCounts[index] += 1 }
        series.sum += value
        series.count += 1
    }
}
