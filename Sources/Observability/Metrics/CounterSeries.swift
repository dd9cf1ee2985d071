import Foundation
import Synchronization

/// One series of a counter, resolved ahead of time for code that updates it per request.
public struct CounterSeries: Sendable {
    let cell: MetricFamily.Cell

    public func increment(by amount: Double = 1) { cell.state.withLock { $0.value += amount } }
}
