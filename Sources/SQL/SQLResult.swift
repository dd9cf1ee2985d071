/// The rows of one statement and the number of rows it inserted, updated or deleted.
struct SQLResult: Sendable {
    var rows: [SQLRow]
    var changed: Int
}
