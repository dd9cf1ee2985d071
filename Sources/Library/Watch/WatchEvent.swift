/// One event as the kernel reported it: the watch, what happened, and the name in that folder.
struct WatchEvent: Sendable, Equatable {
    var watch: Int32
    var mask: UInt32
    var cookie: UInt32
    var name: String
}
