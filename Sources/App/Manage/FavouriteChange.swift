/// The body of `POST /favourites`: the ids to mark and to unmark.
struct FavouriteChange: Decodable { var add: [Int]?; var remove: [Int]? }
