/// A user command that could not be done; the text says why.
struct UsersError: Error, CustomStringConvertible {
    let description: String
}
