/// The outcome of looking a method and path up.
public enum RouteMatch: Sendable {
    case found(Route, parameters: RouteParameters)
    /// The path exists for other methods; the list is the `Allow` header's.
    case methodNotAllowed(allow: [HTTPMethod])
    case notFound
}
