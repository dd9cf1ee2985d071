/// The digests the tus checksum extension may name. A client sends `Upload-Checksum: sha1 <base64 digest>` with a
/// PATCH; the server digests the body as it is written and refuses the piece (460) when they differ.
public enum ChecksumAlgorithm: String, Sendable, CaseIterable {
    case sha1, sha256, sha512

    /// How `Tus-Checksum-Algorithm` lists them.
    public static var advertised: String { allCases.map(\.rawValue).joined(separator: ",") }
}
