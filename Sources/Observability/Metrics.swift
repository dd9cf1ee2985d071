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

/// One metric name with its help text, type and labelled series.
final class MetricFamily: Sendable {
    enum Kind: Sendable {
        case counter, gauge
        case histogram([Double])
    }

    struct Series: Sendable {
        var value: Double = 0
        var bucketCounts: [UInt64] = []
        var sum: Double = 0
        var count: UInt64 = 0
    }

    /// One labelled series; handles keep it so a hot path skips the key and the family's lookup.
    final class Cell: Sendable {
        let labels: MetricLabels
        let state: Mutex<Series>
        init(labels: MetricLabels) {
            self.labels = labels
            self.state = Mutex(Series())
        }
    }

    let name: String
    let help: String
    let kind: Kind
    private let series = Mutex<[String: Cell]>([:])

    init(name: String, help: String, kind: Kind) {
        self.name = name
        self.help = help
        self.kind = kind
    }

    /// The series for `labels`, created empty the first time.
    func cell(_ labels: MetricLabels) -> Cell {
        let key = Self.key(labels)
        return series.withLock { all in
            if let cell = all[key] { return cell }
            let cell = Cell(labels: labels)
            all[key] = cell
            return cell
        }
    }

    func update(_ labels: MetricLabels, _ body: (inout Series) -> Void) {
        // In place: copying the series out and back would copy a histogram's buckets on every update.
        cell(labels).state.withLock { body(&$0) }
    }

    func value(_ labels: MetricLabels) -> Double {
        snapshot(labels)?.value ?? 0
    }

    func snapshot(_ labels: MetricLabels) -> Series? {
        let key = Self.key(labels)
        return series.withLock { $0[key] }?.state.withLock { $0 }
    }

    static func key(_ labels: MetricLabels) -> String {
        // Runs for every request's metrics: appends, not interpolation and joined().
        var key = ""
        for (index, label) in labels.enumerated() {
            if index > 0 { key += "\u{1}" }
            key += label.0
            key += "="
            key += label.1
        }
        return key
    }

    func render(into out: inout String) {
        let typeName: String
        switch kind {
        case .counter: typeName = "counter"
        case .gauge: typeName = "gauge"
        case .histogram: typeName = "histogram"
        }
        // HELP text escapes backslash and newline, or a scraper reads the rest as a new line.
        let helpText = help.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\n", with: "\\n")
        out += "# HELP \(name) \(helpText)\n# TYPE \(name) \(typeName)\n"
        let cells = series.withLock { $0.sorted { $0.key < $1.key }.map(\.value) }
        for cell in cells {
            let entry = (labels: cell.labels, series: cell.state.withLock { $0 })
            switch kind {
            case .counter, .gauge:
                out += "\(name)\(Self.labelText(entry.labels)) \(Self.number(entry.series.value))\n"
            case .histogram(let bounds):
                var cumulative: UInt64 = 0
                for (index, bound) in bounds.enumerated() {
                    cumulative += index < entry.series.bucketCounts.count ? entry.series.bucketCounts[index] : 0
                    out += "\(name)_bucket\(Self.labelText(entry.labels + [("le", Self.number(bound))])) \(cumulative)\n"
                }
                out += "\(name)_bucket\(Self.labelText(entry.labels + [("le", "+Inf")])) \(entry.series.count)\n"
                out += "\(name)_sum\(Self.labelText(entry.labels)) \(Self.number(entry.series.sum))\n"
                out += "\(name)_count\(Self.labelText(entry.labels)) \(entry.series.count)\n"
            }
        }
    }

    static func labelText(_ labels: MetricLabels) -> String {
        guard !labels.isEmpty else { return "" }
        let escaped = labels.map { name, value in
            let v = value.replacingOccurrences(of: "\\", with: "\\\\")
                .replacingOccurrences(of: "\"", with: "\\\"")
                .replacingOccurrences(of: "\n", with: "\\n")
            return "\(name)=\"\(v)\""
        }
        return "{" + escaped.joined(separator: ",") + "}"
    }

    static func number(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value > 0 ? "+Inf" : "-Inf" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }
}

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

/// One series of a counter, resolved ahead of time for code that updates it per request.
public struct CounterSeries: Sendable {
    let cell: MetricFamily.Cell

    public func increment(by amount: Double = 1) { cell.state.withLock { $0.value += amount } }
}

/// A gauge family.
public struct Gauge: Sendable {
    let family: MetricFamily
    init(_ family: MetricFamily) { self.family = family }

    public func set(_ value: Double, _ labels: MetricLabels = []) { family.update(labels) { $0.value = value } }
    public func add(_ amount: Double, _ labels: MetricLabels = []) { family.update(labels) { $0.value += amount } }
    public func value(_ labels: MetricLabels = []) -> Double { family.value(labels) }
}

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

/// Something that counts in memory of its own and adds its counts to a registry's metrics in
/// batches: the registry calls `collect` before every render, so a scrape sees every count.
public protocol MetricsCollector: AnyObject, Sendable {
    /// Adds everything counted since the last call to the registry's metrics.
    func collect()
}
