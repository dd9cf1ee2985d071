extension AccessControl {
    /// Whether `name` is an account's, compared as `Credentials.comparable(name:)` compares
    /// them: "ＡＮＡ" and "ana " are account "ana"'s. The names are read at most once per
    /// `accessCacheSeconds` while changes are heard, and read again as soon as an account is
    /// added or removed on any replica.
    package func isAccountName(_ name: String) throws -> Bool {
        let wanted = Credentials.comparable(name: name)
        if let names = cache.accountNames() { return names.contains(wanted) }
        let epoch = cache.epoch
        let names = Set(try store.userNames().map(Credentials.comparable(name:)))
        cache.keep(accountNames: names, since: epoch)
        return names.contains(wanted)
    }
}
