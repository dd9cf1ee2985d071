/// What `GET /trash` answers: the items, and how many days the trash keeps them.
struct TrashList: Encodable { var items: [TrashEntry]; var trashDays: Int }
