/// The body of `POST /trash/restore`: a batch, or items.
struct TrashRestore: Decodable { var batch: String?; var items: [String]? }
