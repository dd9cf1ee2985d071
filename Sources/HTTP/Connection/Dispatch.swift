/// A request ready for its route's handler.
struct Dispatch: Sendable {
    var sequence: Int
    var request: HTTPRequest
    var route: Route
}
