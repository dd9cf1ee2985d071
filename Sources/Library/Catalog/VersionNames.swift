import FolderScan
import Imaging

/// Names versions for one set of render settings, the settings' part spelled once (it is folded
/// into every version, and a catalog of 100,000 photos names 100,000 of them at start).
struct VersionNames: Sendable {
    /// The settings that change the pixels of a pyramid, as text.
    let key: String
    /// `|` and the key, as bytes: what follows the content hash in every version's digest.
    private let suffix: [UInt8]

    init(_ settings: RenderSettings) {
        key = "t\(settings.tileSize)q\(settings.jpegQuality)s\(settings.thumbnailSize)b\(settings.background.red),\(settings.background.green),\(settings.background.blue)"
        suffix = Array(("|" + key).utf8)
    }

    /// A photo's version: its content hash and the settings, shortened to 12 hex digits. One
    /// digest over both, gathered on the stack; the 12 digits fit in a String without a buffer.
    func version(contentHash: String) -> String {
        var hash = contentHash
        let value = hash.withUTF8 { hashBytes in
            suffix.withUnsafeBytes { suffixBytes in
                withUnsafeTemporaryAllocation(byteCount: hashBytes.count + suffixBytes.count, alignment: 8) { buffer in
                    let joined = UnsafeMutableRawBufferPointer(buffer)
                    joined.copyMemory(from: UnsafeRawBufferPointer(hashBytes))
                    UnsafeMutableRawBufferPointer(rebasing: joined[hashBytes.count...]).copyMemory(from: suffixBytes)
                    return VersionDigest.digest(of: UnsafeRawBufferPointer(joined))
                }
            }
        }
        return ContentHash.hex(value, digits: 12)
    }

    /// The version of a file not hashed yet: its path and fingerprint stand in for its bytes
    /// (what on-demand renders are cached under until the background hashes it).
    func provisionalVersion(path: String, fingerprint: FileFingerprint) -> String {
        version(contentHash: "unhashed|\(path)|\(fingerprint.size)|\(fingerprint.modified)|\(fingerprint.inode)")
    }
}
