/// Why a file could not be looked at during a scan.
enum CatalogScanError: Error, CustomStringConvertible {
    case unreadable(String, String)

    var description: String {
        switch self {
        case .unreadable(let path, let why): "Cannot read \(path): \(why)."
        }
    }
}
