/// Who is asking, as far as a route's rule cares.
package enum Visitor: Sendable, Equatable {
    case anonymous
    case user(SignedIn)

    package var user: SignedIn? {
        if case .user(let user) = self { return user }
        return nil
    }
}
