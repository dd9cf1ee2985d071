#if canImport(Glibc)
import Glibc
#endif
private import CShims

/// Bytes from the kernel's random source, `getrandom(2)` (the pool behind `/dev/urandom`,
/// which blocks only until it is first seeded after boot): for tokens and salts.
public enum KernelRandom {
    public static func bytes(_ count: Int) throws(SystemCallError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var failure: SystemCallError?
        bytes.withUnsafeMutableBytes { buffer in
            do throws(SystemCallError) { try fill(buffer) } catch { failure = error }
        }
        if let failure { throw failure }
        return bytes
    }

    /// Fills `buffer`, call after call.
    public static func fill(_ buffer: UnsafeMutableRawBufferPointer) throws(SystemCallError) {
        var filled = 0
        while filled < buffer.count {
            filled += try requireSystemCall("getrandom") { getrandom(buffer.baseAddress! + filled, buffer.count - filled, 0) }
        }
    }
}
