struct JSONObjectContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let sink: JSONSink
    /// This object's place in the sink's open containers (1-based).
    let depth: Int
    let codingPath: [any CodingKey]

    func encodeNil(forKey key: Key) throws { sink.key(key.stringValue, in: depth); sink.null() }
    func encode(_ value: Bool, forKey key: Key) throws { sink.key(key.stringValue, in: depth); sink.bool(value) }
    func encode(_ value: String, forKey key: Key) throws { sink.key(key.stringValue, in: depth); sink.string(value) }
    func encode(_ value: Double, forKey key: Key) throws {
        sink.key(key.stringValue, in: depth)
        try sink.double(value, path: codingPath + [key])
    }
    func encode(_ value: Float, forKey key: Key) throws {
        sink.key(key.stringValue, in: depth)
        try sink.float(value, path: codingPath + [key])
    }
    func encode(_ value: Int, forKey key: Key) throws { sink.key(key.stringValue, in: depth); sink.integer(value) }
    func encode(_ value: Int8, forKey key: Key) throws { sink.key(key.stringValue, in: depth); sink.integer(value) }
    func encode(_ value: Int16, forKey key: Key) throws { sink.key(key.stringValue, in: depth); sink.integer(value) }
    func encode(_ value: Int32, forKey key: Key) throws { sink.key(key.stringValue, in: depth); sink.integer(value) }
    func encode(_ value: Int64, forKey key: Key) throws { sink.key(key.stringValue, in: depth); sink.integer(value) }
    func encode(_ value: UInt, forKey key: Key) throws { sink.key(key.stringValue, in: depth); sink.integer(value) }
    func encode(_ value: UInt8, forKey key: Key) throws { sink.key(key.stringValue, in: depth); sink.integer(value) }
    func encode(_ value: UInt16, forKey key: Key) throws { sink.key(key.stringValue, in: depth); sink.integer(value) }
    func encode(_ value: UInt32, forKey key: Key) throws { sink.key(key.stringValue, in: depth); sink.integer(value) }
    func encode(_ value: UInt64, forKey key: Key) throws { sink.key(key.stringValue, in: depth); sink.integer(value) }

    func encode<Value: Encodable>(_ value: Value, forKey key: Key) throws {
        sink.key(key.stringValue, in: depth)
        try sink.encode(value, depth: depth, path: codingPath + [key])
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        sink.key(key.stringValue, in: depth)
        sink.openContainer(object: true)
        return KeyedEncodingContainer(JSONObjectContainer<NestedKey>(sink: sink, depth: depth + 1, codingPath: codingPath + [key]))
    }

    func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        sink.key(key.stringValue, in: depth)
        sink.openContainer(object: false)
        return JSONArrayContainer(sink: sink, depth: depth + 1, codingPath: codingPath + [key])
    }

    func superEncoder() -> any Encoder { superEncoder(named: "super") }
    func superEncoder(forKey key: Key) -> any Encoder { superEncoder(named: key.stringValue) }

    private func superEncoder(named name: String) -> any Encoder {
        sink.key(name, in: depth)
        // Until the superclass writes, the member's value is null, so the text stays JSON.
        sink.null()
        return JSONDeferredEncoder(sink: sink, depth: depth, placeholder: sink.bytes.count - 4, codingPath: codingPath)
    }
}
