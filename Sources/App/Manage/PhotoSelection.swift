/// The body of `POST /photos/trash`: the photos' ids.
struct PhotoSelection: Decodable { var ids: [Int] }
