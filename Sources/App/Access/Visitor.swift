import Access

/// A signed-in person, as the checks on the hot path keep them.
struct SignedIn: Sendable, Equatable {
    let id: Int
    let name: String
    let role: Role
}

/// Who is asking, as far as a route's rule cares.
enum Visitor: Sendable, Equatable {
    case anonymous
    case user(SignedIn)

    var user: SignedIn? {
        if case .user(let user) = self { return user }
        return nil
    }
}
