import Access
import HTTP

extension AccessControl {
    /// Who is posting a comment: a signed-in person's account, or a guest whose typed name is
    /// checked against the accounts' names (on the comments lane, from memory when it can).
    func commentPoster(of request: HTTPRequest) throws -> CommentPoster {
        if let user = try visitor(of: request).user { return .account(name: user.name) }
        return .guest { [self] name in try isAccountName(name) }
    }

    /// Whether `name` is an account's, compared as `Credentials.comparable(name:)` compares
    /// them: "ＡＮＡ" and "ana " are account "ana"'s. The names are read at most once per
    /// `accessCacheSeconds` while changes are heard, and read again as soon as an account is
    /// added or removed on any replica.
    func isAccountName(_ name: String) throws -> Bool {
        let wanted = Credentials.comparable(name: name)
        if let names = cache.accountNames() { return names.contains(wanted) }
        let epoch = cache.epoch
        let names = Set(try store.userNames().map(Credentials.comparable(name:)))
        cache.keep(accountNames: names, since: epoch)
        return names.contains(wanted)
    }
}
