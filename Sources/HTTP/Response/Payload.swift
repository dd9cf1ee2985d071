/// What follows a prepared head on the wire.
enum Payload: Sendable {
    case none
    case bytes([UInt8])
    case file(OpenFile, offset: Int, length: Int)
    case stream(@Sendable (ResponseStream) -> Void)
}
