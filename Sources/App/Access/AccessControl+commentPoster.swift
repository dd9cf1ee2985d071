import Access
import HTTP

extension AccessControl {
    /// Who is posting a comment: a signed-in person's account, or a guest whose typed name is
    /// checked against the accounts' names (on the comments lane, from memory when it can).
    func commentPoster(of request: HTTPRequest) throws -> CommentPoster {
        if let user = try visitor(of: request).user { return .account(name: user.name) }
        return .guest { [self] name in try isAccountName(name) }
    }
}
