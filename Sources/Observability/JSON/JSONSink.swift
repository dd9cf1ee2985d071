/// The bytes written so far and the containers still open. Values are written as they are
/// encoded, never built as a tree first; a container is closed when its parent writes again
/// or when the value that opened it is done.
final class JSONSink {
    var bytes: [UInt8] = []
    /// Open containers, innermost last: whether each is an object, and whether it has a member yet.
    private var open: [(object: Bool, empty: Bool)] = []

    init() { bytes.reserveCapacity(256) }

    var depth: Int { open.count }

    /// Closes every container deeper than `depth`.
    @inline(__always)
    func close(downTo depth: Int) {
        while open.count > depth { bytes.append(open.removeLast().object ? 0x7d : 0x5d) }
    }

    /// Opens an object or array as the value being written; its containers sit at the new depth.
    func openContainer(object: Bool) {
        bytes.append(object ? 0x7b : 0x5b)
        open.append((object, true))
    }

    /// Starts the next member or element of the container at `depth` (1-based): closes anything
    /// deeper, then the comma.
    @inline(__always)
    func next(in depth: Int) {
        close(downTo: depth)
        if open[depth - 1].empty { open[depth - 1].empty = false } else { bytes.append(0x2c) }
    }

    /// `"key":` as the next member of the object at `depth`.
    func key(_ name: String, in depth: Int) {
        next(in: depth)
        string(name)
        bytes.append(0x3a)
    }

    func raw(_ text: String) {
        JSONEscaping.withUTF8(text) { bytes.append(contentsOf: $0) }
    }

    func string(_ text: String) {
        bytes.append(0x22)
        JSONEscaping.append(text, to: &bytes)
        bytes.append(0x22)
    }

    func null() { bytes.append(contentsOf: [0x6e, 0x75, 0x6c, 0x6c]) }

    func bool(_ value: Bool) {
        if value { bytes.append(contentsOf: [0x74, 0x72, 0x75, 0x65]) } else { bytes.append(contentsOf: [0x66, 0x61, 0x6c, 0x73, 0x65]) }
    }

    func integer<Number: BinaryInteger>(_ value: Number) {
        if value < 0 {
            bytes.append(0x2d)
            unsigned(UInt64(value.magnitude))
        } else {
            unsigned(UInt64(value))
        }
    }

    private func unsigned(_ value: UInt64) {
        var digits = 1
        var scale: UInt64 = 10
        while digits < 20 && value >= scale {
            digits += 1
            if scale > UInt64.max / 10 { break }
            scale *= 10
        }
        var at = bytes.count + digits
        bytes.append(contentsOf: repeatElement(0x30, count: digits))
        var rest = value
        repeat {
            at -= 1
            bytes[at] = 0x30 + UInt8(rest % 10)
            rest /= 10
        } while rest > 0
    }

    func double(_ value: Double, path: [any CodingKey]) throws {
        guard value.isFinite else {
            throw EncodingError.invalidValue(value, EncodingError.Context(codingPath: path, debugDescription: "JSON has no \(value)."))
        }
        if value == value.rounded(), abs(value) < 1e15 { integer(Int64(value)) } else { raw(value.description) }
    }

    func float(_ value: Float, path: [any CodingKey]) throws {
        guard value.isFinite else {
            throw EncodingError.invalidValue(value, EncodingError.Context(codingPath: path, debugDescription: "JSON has no \(value)."))
        }
        if value == value.rounded(), abs(value) < 1e7 { integer(Int64(value)) } else { raw(value.description) }
    }

    /// Writes `value` as the value at this point; `depth` is how many containers are open
    /// around it. Whatever it opens is closed when it is done.
    func encode<Value: Encodable>(_ value: Value, depth: Int, path: [any CodingKey]) throws {
        // The common leaves without an encoder of their own.
        if Value.self == String.self { return string(value as! String) }
        if Value.self == Int.self { return integer(value as! Int) }
        if Value.self == JSONFragment.self { return raw((value as! JSONFragment).text) }
        let start = bytes.count
        try value.encode(to: JSONValueEncoder(sink: self, depth: depth, codingPath: path))
        close(downTo: depth)
        // A value that asked for no container at all is an empty object, as Foundation writes it.
        if bytes.count == start { bytes.append(contentsOf: [0x7b, 0x7d]) }
    }
}
