/// Where moved or copied photos go: `"folder"`, a folder's id or a path; `album` is only read
/// to say that albums are not places.
struct PhotoDestination: Decodable {
    enum Folder: Decodable {
        case id(Int)
        case path(String)

        init(from decoder: any Decoder) throws {
            let c = try decoder.singleValueContainer()
            if let id = try? c.decode(Int.self) { self = .id(id) } else { self = .path(try c.decode(String.self)) }
        }
    }

    var ids: [Int]
    var folder: Folder?
    var album: Int?
}
