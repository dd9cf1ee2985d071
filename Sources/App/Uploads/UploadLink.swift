/// A share link that lets its holder add photos: uploads made through it go into its folder
/// only, and only it can go on with them.
struct UploadLink: Sendable, Equatable {
    /// The link's id (`shares.id`), kept with each upload made through it.
    var share: Int
    /// The shared folder, relative to the photos folder.
    var folder: String
}
