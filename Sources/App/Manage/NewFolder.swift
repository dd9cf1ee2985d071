/// The body of `POST /folders`: where the new folder goes.
struct NewFolder: Decodable { var path: String?; var title: String? }
