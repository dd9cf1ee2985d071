/// The `Encoder` handed to each value that encodes itself.
final class JSONValueEncoder: Encoder {
    let sink: JSONSink
    /// Containers open around this value.
    let depth: Int
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    /// The container this value opened, so asking twice (a subclass and its superclass) writes
    /// into the same one.
    private var opened: (object: Bool, depth: Int)?

    init(sink: JSONSink, depth: Int, codingPath: [any CodingKey]) {
        self.sink = sink
        self.depth = depth
        self.codingPath = codingPath
    }

    private func openContainer(object: Bool) -> Int {
        if let opened, opened.object == object, sink.depth >= opened.depth {
            sink.close(downTo: opened.depth)
            return opened.depth
        }
        sink.close(downTo: depth)
        sink.openContainer(object: object)
        opened = (object, depth + 1)
        return depth + 1
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(JSONObjectContainer<Key>(sink: sink, depth: openContainer(object: true), codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        JSONArrayContainer(sink: sink, depth: openContainer(object: false), codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        JSONSingleValueContainer(sink: sink, depth: depth, codingPath: codingPath)
    }
}
