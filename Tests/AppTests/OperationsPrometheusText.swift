import Foundation
import XCTest

/// A strict reader of the Prometheus text format (0.0.4), so tests fail on output a scraper would reject.
struct PrometheusText {
    struct Sample: Equatable {
        var name: String
        var labels: [String: String]
        var value: Double
    }

    var help: [String: String] = [:]
    var types: [String: String] = [:]
    var samples: [Sample] = []

    struct ParseError: Error, CustomStringConvertible {
        var description: String
    }

    init(_ text: String) throws {
        guard text.isEmpty || text.hasSuffix("\n") else { throw ParseError(description: "the text must end with a newline") }
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().enumerated() {
            func fail(_ why: String) -> ParseError { ParseError(description: "line \(number + 1) \"\(line)\": \(why)") }
            if line.hasPrefix("# HELP ") || line.hasPrefix("# TYPE ") {
                let parts = line.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: false)
                guard parts.count == 4, Self.isMetricName(parts[2]) else { throw fail("malformed HELP/TYPE") }
                let name = String(parts[2])
                if parts[1] == "HELP" {
                    guard help[name] == nil else { throw fail("second HELP for \(name)") }
                    help[name] = String(parts[3])
                } else {
                    guard ["counter", "gauge", "histogram", "summary", "untyped"].contains(parts[3]) else { throw fail("unknown type") }
                    guard types[name] == nil else { throw fail("second TYPE for \(name)") }
                    guard !samples.contains(where: { Self.family(of: $0.name, in: [name: ""]) == name }) else {
                        throw fail("TYPE after samples of \(name)")
                    }
                    types[name] = String(parts[3])
                }
                continue
            }
            if line.hasPrefix("#") || line.isEmpty { continue }
            samples.append(try Self.sample(line, fail))
        }
    }

    /// The family a sample belongs to: `x_bucket`, `x_sum` and `x_count` belong to histogram `x`.
    static func family(of name: String, in types: [String: String]) -> String {
        for suffix in ["_bucket", "_sum", "_count"] where name.hasSuffix(suffix) {
            let base = String(name.dropLast(suffix.count))
            if types[base] != nil { return base }
        }
        return name
    }

    static func isMetricName<S: StringProtocol>(_ name: S) -> Bool {
        guard let first = name.first, first.isLetter || first == "_" || first == ":" else { return false }
        return name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == ":") }
    }

    private static func sample(_ line: Substring, _ fail: (String) -> ParseError) throws -> Sample {
        var rest = line[...]
        let name = rest.prefix { $0 != "{" && $0 != " " }
        guard isMetricName(name) else { throw fail("bad metric name") }
        rest = rest.dropFirst(name.count)
        var labels: [String: String] = [:]
        if rest.first == "{" {
            rest = rest.dropFirst()
            while rest.first != "}" {
                let labelName = rest.prefix { $0 != "=" }
                guard isMetricName(labelName), !labelName.contains(":") else { throw fail("bad label name") }
                rest = rest.dropFirst(labelName.count)
                guard rest.hasPrefix("=\"") else { throw fail("label without a quoted value") }
                rest = rest.dropFirst(2)
                var value = ""
                while true {
                    guard let c = rest.popFirst() else { throw fail("unterminated label value") }
                    if c == "\"" { break }
                    if c == "\\" {
                        switch rest.popFirst() {
                        case "\\": value.append("\\")
                        case "\"": value.append("\"")
                        case "n": value.append("\n")
                        default: throw fail("bad escape in a label value")
                        }
                    } else {
                        value.append(c)
                    }
                }
                guard labels[String(labelName)] == nil else { throw fail("label \(labelName) twice") }
                labels[String(labelName)] = value
                if rest.first == "," { rest = rest.dropFirst() } else if rest.first != "}" { throw fail("expected , or }") }
            }
            rest = rest.dropFirst()
        }
        guard rest.first == " " else { throw fail("no space before the value") }
        let fields = rest.dropFirst().split(separator: " ")
        guard (1...2).contains(fields.count) else { throw fail("expected a value and an optional timestamp") }
        let text = String(fields[0])
        let value: Double? = ["+Inf": .infinity, "-Inf": -.infinity, "NaN": .nan][text] ?? Double(text)
        guard let value, text.lowercased() != "inf", text.lowercased() != "nan" || text == "NaN" else { throw fail("bad value") }
        return Sample(name: String(name), labels: labels, value: value)
    }

    /// The value of the one sample with this name whose labels include `labels`.
    func value(_ name: String, _ labels: [String: String] = [:]) -> Double? {
        let matching = samples.filter { sample in
            sample.name == name && labels.allSatisfy { key, value in sample.labels[key] == value }
        }
        return matching.count == 1 ? matching[0].value : nil
    }

    /// Checks what a scraper relies on beyond syntax: every sample has a TYPE, histograms are cumulative.
    func validate() throws {
        for sample in samples {
            let family = Self.family(of: sample.name, in: types)
            guard let type = types[family] else { throw ParseError(description: "\(sample.name) has no TYPE") }
            if type == "counter" && (sample.value < 0 || sample.value.isNaN) {
                throw ParseError(description: "counter \(sample.name) is \(sample.value)")
            }
        }
        for (family, type) in types where type == "histogram" {
            var series: [String: [(le: Double, count: Double)]] = [:]
            for sample in samples where sample.name == family + "_bucket" {
                guard let le = sample.labels["le"], let bound = le == "+Inf" ? Double.infinity : Double(le) else {
                    throw ParseError(description: "\(family) bucket without le")
                }
                let key = sample.labels.filter { $0.key != "le" }.sorted { $0.key < $1.key }.map { "\($0)=\($1)" }.joined(separator: ",")
                series[key, default: []].append((bound, sample.value))
            }
            for (key, buckets) in series {
                let counts = buckets.sorted { $0.le < $1.le }.map(\.count)
                guard counts == counts.sorted() else { throw ParseError(description: "\(family){\(key)} buckets are not cumulative") }
                guard buckets.contains(where: { $0.le == .infinity }) else { throw ParseError(description: "\(family){\(key)} has no +Inf bucket") }
            }
        }
    }
}
