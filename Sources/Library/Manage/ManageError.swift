/// Why a change to photos could not be made, for the person who asked.
public enum ManageError: Error, Equatable, CustomStringConvertible {
    case noSuchPhoto(Int)
    case folder(FolderWriteError)

    public var description: String {
        switch self {
        case .noSuchPhoto(let id): "There is no photo \(id)."
        case .folder(let error): error.description
        }
    }
}
