/// How an album's photos are shown: by date taken, as the library's, or in the album's own order,
/// the one its people put them in.
public enum AlbumPhotoOrder: String, Sendable, Equatable {
    case taken
    case custom
}
