/// A `superEncoder`'s: the first container asked of it replaces the `null` placeholder, which
/// must still be the last thing written.
final class JSONDeferredEncoder: Encoder {
    let sink: JSONSink
    let depth: Int
    let placeholder: Int
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    private lazy var inner: JSONValueEncoder = {
        sink.close(downTo: depth)
        if sink.bytes.count == placeholder + 4 { sink.bytes.removeLast(4) }
        return JSONValueEncoder(sink: sink, depth: depth, codingPath: codingPath)
    }()

    init(sink: JSONSink, depth: Int, placeholder: Int, codingPath: [any CodingKey]) {
        self.sink = sink
        self.depth = depth
        self.placeholder = placeholder
        self.codingPath = codingPath
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> { inner.container(keyedBy: type) }
    func unkeyedContainer() -> any UnkeyedEncodingContainer { inner.unkeyedContainer() }
    func singleValueContainer() -> any SingleValueEncodingContainer { inner.singleValueContainer() }
}
