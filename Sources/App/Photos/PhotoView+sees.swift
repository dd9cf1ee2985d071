import Library

extension PhotoView {
    /// Whether the view shows photo `id`: any photo of the library, a link's folder's or album's
    /// photos, a link's one photo.
    func sees(_ id: Int, in library: any PhotoBrowsing) -> Bool {
        switch scope {
        case .library: true
        case .folder(let folder): library.albumID(ofPhoto: id) == folder
        case .album(_, let photos, _): photos.contains(id)
        case .photo(let shared): id == shared
        }
    }
}
