import Foundation
import Synchronization

/// One series of a histogram, resolved ahead of time for code that updates it per request.
public struct HistogramSeries: Sendable {
    let cell: MetricFamily.Cell
    let bounds: [Double]

    public func observe(_ value: Double) {
        cell.state.withLock { Histogram.record(value, bounds: bounds, into: &$0) }
    }

    /// Adds observations counted elsewhere: `bucketCounts[i]` of them fell in bucket `i` (the
    /// first bound they do not exceed; those above every bound are in `count` only), `count`
    /// in all, summing to `sum`.
    public func add(bucketCounts: [UInt64], count: UInt64, sum: Double) {
        cell.state.withLock { series in
            if series.bucketCounts.isEmpty { series.bucketCounts = Array(repeating: 0, count: bounds.count) }
            for i in 0..<min(bounds.count, bucketCounts.count) { series.bucketCounts[i] += bucketCounts[i] }
            series.count += count
            series.sum += sum
        }
    }
}
