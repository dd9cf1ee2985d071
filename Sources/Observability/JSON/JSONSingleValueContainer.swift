struct JSONSingleValueContainer: SingleValueEncodingContainer {
    let sink: JSONSink
    let depth: Int
    let codingPath: [any CodingKey]

    private func begin() { sink.close(downTo: depth) }

    func encodeNil() throws { begin(); sink.null() }
    func encode(_ value: Bool) throws { begin(); sink.bool(value) }
    func encode(_ value: String) throws { begin(); sink.string(value) }
    func encode(_ value: Double) throws { begin(); try sink.double(value, path: codingPath) }
    func encode(_ value: Float) throws { begin(); try sink.float(value, path: codingPath) }
    func encode(_ value: Int) throws { begin(); sink.integer(value) }
    func encode(_ value: Int8) throws { begin(); sink.integer(value) }
    func encode(_ value: Int16) throws { begin(); sink.integer(value) }
    func encode(_ value: Int32) throws { begin(); sink.integer(value) }
    func encode(_ value: Int64) throws { begin(); sink.integer(value) }
    func encode(_ value: UInt) throws { begin(); sink.integer(value) }
    func encode(_ value: UInt8) throws { begin(); sink.integer(value) }
    func encode(_ value: UInt16) throws { begin(); sink.integer(value) }
    func encode(_ value: UInt32) throws { begin(); sink.integer(value) }
    func encode(_ value: UInt64) throws { begin(); sink.integer(value) }

    func encode<Value: Encodable>(_ value: Value) throws {
        begin()
        try sink.encode(value, depth: depth, path: codingPath)
    }
}
