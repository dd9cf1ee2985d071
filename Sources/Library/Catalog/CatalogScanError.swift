/// Why a file could not be looked at during a scan.
public enum CatalogScanError: Error, CustomStringConvertible {
    case unreadable(String, String)

    public var description: String {
        switch self {
        case .unreadable(let path, let why): "Cannot read \(path): \(why)."
        }
    }
}
