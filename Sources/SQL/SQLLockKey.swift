import POSIX
import Synchronization

/// The name of an advisory lock: a 64-bit number, usually made from a purpose and an id.
public struct SQLLockKey: Hashable, Sendable, CustomStringConvertible {
    public let value: Int64

    public init(_ value: Int64) { self.value = value }

    /// A key for `id` within `namespace` (`SQLLockKey("pyramid-build", 42)`): FNV-1a of both, so
    /// different purposes do not collide in the database's one key space.
    public init(_ namespace: String, _ id: Int64) {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in namespace.utf8 + [0] + withUnsafeBytes(of: id.littleEndian, Array.init) {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        value = Int64(bitPattern: hash)
    }

    public var description: String { String(value) }
}
