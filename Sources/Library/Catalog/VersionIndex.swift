/// Version → the ids listed at it. Nearly every version has one photo (duplicates share one), so
/// one id is kept inline and only the shared versions get a list.
struct VersionIndex: Sendable {
    private var single: [String: Int] = [:]
    private var shared: [String: [Int]] = [:]

    mutating func reserve(_ count: Int) { single.reserveCapacity(count) }

    mutating func insert(_ id: Int, _ version: String) {
        // One hash of the version in the common case (a version of its own): a start names 100,000.
        if !shared.isEmpty, shared[version] != nil {
            shared[version]!.append(id)
        } else if let other = single.updateValue(id, forKey: version), other != id {
            single[version] = nil
            shared[version] = [other, id]
        }
    }

    mutating func remove(_ id: Int, _ version: String) {
        if single[version] == id {
            single[version] = nil
        } else if var list = shared[version] {
            list.removeAll { $0 == id }
            if list.count == 1 {
                shared[version] = nil
                single[version] = list[0]
            } else {
                shared[version] = list.isEmpty ? nil : list
            }
        }
    }

    func ids(_ version: String) -> [Int] { shared[version] ?? single[version].map { [$0] } ?? [] }

    var versions: Set<String> { Set(single.keys).union(shared.keys) }
}
