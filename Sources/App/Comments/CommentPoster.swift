import HTTP

/// Who posts a comment, as the route's access control tells: the comment's author is decided
/// by it, never by the name in the body alone.
enum CommentPoster: Sendable {
    /// A signed-in person: the comment carries their account name, whatever the body says, and
    /// is marked verified.
    case account(name: String)
    /// Anyone else (a public library's visitor, a share link's holder): the name they type,
    /// unless `isAccountName` says it belongs to an account of this library.
    case guest(isAccountName: @Sendable (String) throws -> Bool)

    /// A router without access control has no accounts: any name goes.
    static let anyone = CommentPoster.guest { _ in false }

    /// The 422 for a guest who typed an account's name.
    static func accountNameTaken(_ name: String) -> HTTPError {
        HTTPError(.unprocessableContent,
                  "The name \"\(name)\" belongs to an account of this library. Sign in to comment as \(name), or choose another name.")
    }
}
