/// What `GET /favourites` and `POST /favourites` answer: every favourite's id.
struct FavouriteList: Encodable { var ids: [Int] }
