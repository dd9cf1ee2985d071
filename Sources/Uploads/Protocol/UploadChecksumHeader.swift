/// An `Upload-Checksum` field: `<algorithm> <base64 digest>` (tus checksum extension).
public struct UploadChecksumHeader: Sendable, Equatable {
    public var algorithm: ChecksumAlgorithm
    public var digest: [UInt8]

    public init(algorithm: ChecksumAlgorithm, digest: [UInt8]) {
        self.algorithm = algorithm
        self.digest = digest
    }

    /// Why a field could not be used: an algorithm not supported (400 with the list), or a malformed field.
    public enum Problem: Error, Equatable {
        case unsupported(String)
        case malformed
    }

    /// Parses the field's value.
    public static func parse(_ value: String) throws(Problem) -> UploadChecksumHeader {
        let parts = value.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count == 2 else { throw .malformed }
        guard let algorithm = ChecksumAlgorithm(rawValue: String(parts[0])) else { throw .unsupported(String(parts[0].prefix(32))) }
        guard let digest = Base64.decode(parts[1]), digest.count == algorithm.digestBytes else { throw .malformed }
        return UploadChecksumHeader(algorithm: algorithm, digest: digest)
    }
}
