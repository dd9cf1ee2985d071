private import CNettle
import POSIX

// The C wall of uploads: nettle's digests (Debian's `nettle-dev`). No other file imports CNettle.

/// `count` random bytes from the kernel (`KernelRandom`); blocks only until the pool is first
/// ready, at boot.
func randomBytes(_ count: Int) -> [UInt8] {
    guard let bytes = try? KernelRandom.bytes(count) else { preconditionFailure("getrandom failed") }
    return bytes
}

// The sizes are nettle's constants: they live here so that ChecksumAlgorithm.swift needs no C.
extension ChecksumAlgorithm {
    /// The digest's length in bytes.
    public var digestBytes: Int {
        switch self {
        case .sha1: Int(SHA1_DIGEST_SIZE)
        case .sha256: Int(SHA256_DIGEST_SIZE)
        case .sha512: Int(SHA512_DIGEST_SIZE)
        }
    }
}

/// A running digest of one algorithm. Not shared between threads: one PATCH's sink owns it.
public final class ChecksumDigest {
    public let algorithm: ChecksumAlgorithm
    private let context: UnsafeMutableRawPointer

    public init(_ algorithm: ChecksumAlgorithm) {
        self.algorithm = algorithm
        switch algorithm {
        case .sha1:
            let sha1 = UnsafeMutablePointer<sha1_ctx>.allocate(capacity: 1)
            nettle_sha1_init(sha1)
            context = UnsafeMutableRawPointer(sha1)
        case .sha256:
            let sha256 = UnsafeMutablePointer<sha256_ctx>.allocate(capacity: 1)
            nettle_sha256_init(sha256)
            context = UnsafeMutableRawPointer(sha256)
        case .sha512:
            let sha512 = UnsafeMutablePointer<sha512_ctx>.allocate(capacity: 1)
            nettle_sha512_init(sha512)
            context = UnsafeMutableRawPointer(sha512)
        }
    }

    deinit { context.deallocate() }

    /// Adds bytes to the digest.
    public func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count > 0 else { return }
        switch algorithm {
        case .sha1: nettle_sha1_update(context.assumingMemoryBound(to: sha1_ctx.self), bytes.count, base)
        case .sha256: nettle_sha256_update(context.assumingMemoryBound(to: sha256_ctx.self), bytes.count, base)
        case .sha512: nettle_sha512_update(context.assumingMemoryBound(to: sha512_ctx.self), bytes.count, base)
        }
    }

    public func update(_ bytes: [UInt8]) { bytes.withUnsafeBytes { update($0) } }

    /// The digest of everything added; the digest starts over afterwards.
    public func finish() -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: algorithm.digestBytes)
        digest.withUnsafeMutableBufferPointer { out in
            switch algorithm {
            case .sha1: nettle_sha1_digest(context.assumingMemoryBound(to: sha1_ctx.self), out.count, out.baseAddress)
            case .sha256: nettle_sha256_digest(context.assumingMemoryBound(to: sha256_ctx.self), out.count, out.baseAddress)
            case .sha512: nettle_sha512_digest(context.assumingMemoryBound(to: sha512_ctx.self), out.count, out.baseAddress)
            }
        }
        return digest
    }
}
