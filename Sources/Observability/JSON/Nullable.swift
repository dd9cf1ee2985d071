/// An explicit `null` when there is no value (an optional property is left out instead).
public struct Nullable<Wrapped: Encodable>: Encodable, ExpressibleByNilLiteral {
    public var value: Wrapped?

    public init(_ value: Wrapped?) { self.value = value }
    public init(nilLiteral: ()) { value = nil }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let value { try container.encode(value) } else { try container.encodeNil() }
    }
}

extension Nullable: Sendable where Wrapped: Sendable {}
extension Nullable: Equatable where Wrapped: Equatable {}
