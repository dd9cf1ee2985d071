/// A signed-in person, as the checks on the hot path keep them.
package struct SignedIn: Sendable, Equatable {
    package let id: Int
    package let name: String
    package let role: Role
}
