struct JSONArrayContainer: UnkeyedEncodingContainer {
    let sink: JSONSink
    let depth: Int
    let codingPath: [any CodingKey]
    private(set) var count = 0

    init(sink: JSONSink, depth: Int, codingPath: [any CodingKey]) {
        self.sink = sink
        self.depth = depth
        self.codingPath = codingPath
    }

    private mutating func next() {
        sink.next(in: depth)
        count += 1
    }

    mutating func encodeNil() throws { next(); sink.null() }
    mutating func encode(_ value: Bool) throws { next(); sink.bool(value) }
    mutating func encode(_ value: String) throws { next(); sink.string(value) }
    mutating func encode(_ value: Double) throws { next(); try sink.double(value, path: codingPath) }
    mutating func encode(_ value: Float) throws { next(); try sink.float(value, path: codingPath) }
    mutating func encode(_ value: Int) throws { next(); sink.integer(value) }
    mutating func encode(_ value: Int8) throws { next(); sink.integer(value) }
    mutating func encode(_ value: Int16) throws { next(); sink.integer(value) }
    mutating func encode(_ value: Int32) throws { next(); sink.integer(value) }
    mutating func encode(_ value: Int64) throws { next(); sink.integer(value) }
    mutating func encode(_ value: UInt) throws { next(); sink.integer(value) }
    mutating func encode(_ value: UInt8) throws { next(); sink.integer(value) }
    mutating func encode(_ value: UInt16) throws { next(); sink.integer(value) }
    mutating func encode(_ value: UInt32) throws { next(); sink.integer(value) }
    mutating func encode(_ value: UInt64) throws { next(); sink.integer(value) }

    mutating func encode<Value: Encodable>(_ value: Value) throws {
        next()
        try sink.encode(value, depth: depth, path: codingPath)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        next()
        sink.openContainer(object: true)
        return KeyedEncodingContainer(JSONObjectContainer<NestedKey>(sink: sink, depth: depth + 1, codingPath: codingPath))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        next()
        sink.openContainer(object: false)
        return JSONArrayContainer(sink: sink, depth: depth + 1, codingPath: codingPath)
    }

    mutating func superEncoder() -> any Encoder {
        next()
        sink.null()
        return JSONDeferredEncoder(sink: sink, depth: depth, placeholder: sink.bytes.count - 4, codingPath: codingPath)
    }
}
