/// One item of the trash as its routes list it.
struct TrashEntry: Encodable { var id: String; var batch: String; var photo: Int; var path: String; var size: Int; var deleted: String; var expires: String }
