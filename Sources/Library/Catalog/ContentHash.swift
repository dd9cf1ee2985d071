import Foundation
import Imaging
import POSIX
private import CXXHash

/// A file's identity: XXH3-64 (libxxhash) over its bytes, at memory speed. Not cryptographic: it
/// tells a changed file from an unchanged one and a moved photo from a new one. The only file
/// that speaks to libxxhash.
public struct ContentHash: Sendable {
    /// Which function made a stored hash. Catalogs older than xxHash hold `.legacy` ones.
    public enum Kind: Int, Sendable, Hashable {
        /// `VersionDigest` over the bytes.
        case legacy = 0
        /// XXH3-64 over the bytes.
        case xxh3 = 1
    }

    /// A hashed file: its XXH3 hash and, when asked for, the legacy one from the same read.
    public struct FileHashes: Sendable, Equatable {
        public var xxh3: String
        public var legacy: String?

        /// The hash of the given kind, when it was computed.
        public func hash(_ kind: Kind) -> String? { kind == .xxh3 ? xxh3 : legacy }
    }

    /// The XXH3-64 hash of some bytes, as 16 hex digits.
    public static func hex(of bytes: [UInt8]) -> String {
        hex(bytes.withUnsafeBytes { XXH3_64bits($0.baseAddress, $0.count) })
    }

    /// Hashes a whole file in one sequential read of 1 MiB chunks, with `alsoLegacy` feeding the
    /// same chunks to the legacy digest too (to confirm an old catalog's hash without a second read).
    public static func file(_ source: PhotoSource, alsoLegacy: Bool = false) throws -> FileHashes {
        let file = try source.open()
        defer { file.close() }
        let path = source.name
        _ = posix_fadvise(file.rawValue, 0, 0, POSIX_FADV_SEQUENTIAL)
        guard let state = XXH3_createState() else { throw CatalogScanError.unreadable(path, "out of memory") }
        defer { XXH3_freeState(state) }
        XXH3_64bits_reset(state)
        var legacy = alsoLegacy ? VersionDigest() : nil
        let chunk = 1 << 20
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let n: Int
            do { n = try file.read(into: buffer) } catch { throw CatalogScanError.unreadable(path, error.reason) }
            if n == 0 { break }
            XXH3_64bits_update(state, buffer.baseAddress, n)
            legacy?.update(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
        }
        return FileHashes(xxh3: hex(XXH3_64bits_digest(state)), legacy: legacy?.hex)
    }

    /// The same for a file of our own (an upload being checked), opened by its path.
    public static func file(_ path: String, alsoLegacy: Bool = false) throws -> FileHashes {
        try file(.file(path), alsoLegacy: alsoLegacy)
    }

    /// 16 lowercase hex digits.
    /// The first `count` (at most 16) of the 16 hex digits, without building the whole text.
    static func hex(_ value: UInt64, digits count: Int) -> String {
        String(unsafeUninitializedCapacity: count) { buffer in
            for i in 0..<count {
                let nibble = UInt8(truncatingIfNeeded: value >> UInt64(60 - 4 * i)) & 0xF
                buffer[i] = nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
            }
            return count
        }
    }

    static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
