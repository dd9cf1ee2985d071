/// What trashing photos or a folder answers: the batch (to undo) and its items.
struct TrashBatch: Encodable { var batch: String?; var items: [TrashEntry] }
