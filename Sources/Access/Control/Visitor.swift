/// A signed-in person, as the checks on the hot path keep them.
package struct SignedIn: Sendable, Equatable {
    package let id: Int
    package let name: String
    package let role: Role
}

/// Who is asking, as far as a route's rule cares.
package enum Visitor: Sendable, Equatable {
    case anonymous
    case user(SignedIn)

    package var user: SignedIn? {
        if case .user(let user) = self { return user }
        return nil
    }
}
