import Foundation
import Synchronization

/// Label names and values of one time series, e.g. `[("route", "/photos/:id"), ("status", "200")]`.
public typealias MetricLabels = [(String, String)]

/// A set of metrics rendered together in the Prometheus text format (version 0.0.4).
///
/// Every layer records into the registry it is handed; `GET /metrics` renders it.
/// Metrics are created once by name and are cheap to update from any thread.
public final class MetricsRegistry: Sendable {
    private let families = Mutex<[String: MetricFamily]>([:])
    private let order = Mutex<[String]>([])
    private let collectors = Mutex<[WeakCollector]>([])

    public init() {}

    /// Asks `collector` to add what it holds back before every render, for as long as it lives:
    /// for code that counts in memory of its own and adds in batches (see `MetricsCollector`).
    public func addCollector(_ collector: any MetricsCollector) {
        collectors.withLock { list in
            list.removeAll { $0.collector == nil }
            list.append(WeakCollector(collector: collector))
        }
    }

    private struct WeakCollector: Sendable {
        weak var collector: (any MetricsCollector)?
    }

    /// A monotonically increasing counter; the same name and help returns the same family.
    public func counter(_ name: String, help: String) -> Counter {
        Counter(family(name, help: help, kind: .counter))
    }

    /// A value that goes up and down (open connections, queue length).
    public func gauge(_ name: String, help: String) -> Gauge {
        Gauge(family(name, help: help, kind: .gauge))
    }

    /// A histogram with cumulative `le` buckets, `_sum` and `_count`.
    public func histogram(_ name: String, help: String, buckets: [Double] = Histogram.defaultBuckets) -> Histogram {
        Histogram(family(name, help: help, kind: .histogram(buckets.sorted())))
    }

    private func family(_ name: String, help: String, kind: MetricFamily.Kind) -> MetricFamily {
        families.withLock { families in
            if let existing = families[name] { return existing }
            let family = MetricFamily(name: name, help: help, kind: kind)
            families[name] = family
            order.withLock { $0.append(name) }
            return family
        }
    }

    /// Every family in registration order, in the Prometheus text exposition format.
    public func render() -> String {
        for entry in collectors.withLock({ $0 }) { entry.collector?.collect() }
        let names = order.withLock { $0 }
        let all = families.withLock { $0 }
        var out = ""
        for name in names {
            all[name]?.render(into: &out)
        }
        return out
    }
}
