import Foundation
import Synchronization

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
