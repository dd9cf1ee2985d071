import Library

extension PhotoView {
    /// Whether the view shows photo `id`: any photo of the library, a link's album's photos, a
    /// link's one photo.
    func sees(_ id: Int, in library: PhotoLibrary) -> Bool {
        switch scope {
        case .library: true
        case .album(let album): library.albumID(ofPhoto: id) == album
        case .photo(let shared): id == shared
        }
    }
}
