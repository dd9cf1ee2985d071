/// What a request's `Accept` header prefers, as far as answering a comment post goes.
enum AcceptPreference {
    /// Whether JSON is preferred over an HTML page: a form posted by `fetch` with
    /// `Accept: application/json` wants the comment back; a browser submitting the form
    /// itself (`text/html,…,*/*;q=0.8`) wants to be sent back to the photo page.
    /// At equal `q`, the type named more specifically wins (`application/json, */*` is a JSON client).
    static func prefersJSON(_ accept: String?) -> Bool {
        guard let accept, !accept.isEmpty else { return false }
        let ranges = parse(accept)
        let json = match(of: "application/json", in: ranges)
        let html = match(of: "text/html", in: ranges)
        guard json.q > 0 else { return false }
        return json.q > html.q || (json.q == html.q && json.specificity > html.specificity)
    }

    /// Media ranges with their `q`, e.g. `[("text/html", 1.0), ("*/*", 0.8)]`.
    static func parse(_ accept: String) -> [(range: String, q: Double)] {
        accept.split(separator: ",").compactMap { item in
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let range = parts.first?.lowercased(), !range.isEmpty else { return nil }
            var q = 1.0
            for parameter in parts.dropFirst() where parameter.lowercased().hasPrefix("q=") {
                q = Double(parameter.dropFirst(2)) ?? 0
            }
            return (range, min(max(q, 0), 1))
        }
    }

    /// The `q` of the most specific range matching `mediaType` (RFC 9110 §12.5.1), 0 when none does.
    static func quality(of mediaType: String, in ranges: [(range: String, q: Double)]) -> Double {
        match(of: mediaType, in: ranges).q
    }

    /// The most specific matching range's `q`, and how specific it was: 2 exact, 1 `type/*`, 0 `*/*`, -1 none.
    static func match(of mediaType: String, in ranges: [(range: String, q: Double)]) -> (specificity: Int, q: Double) {
        let type = mediaType.split(separator: "/").first.map(String.init) ?? ""
        var best: (specificity: Int, q: Double) = (-1, 0)
        for (range, q) in ranges {
            let specificity: Int
            if range == mediaType { specificity = 2 }
            else if range == "\(type)/*" { specificity = 1 }
            else if range == "*/*" { specificity = 0 }
            else { continue }
            if specificity > best.specificity { best = (specificity, q) }
        }
        return best
    }
}
