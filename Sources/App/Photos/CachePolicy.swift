import HTTP

/// The cache lifetimes of photo resources. On a private library every one says `private`: a
/// shared cache (a proxy, a CDN) must never hand one person's photos to another; browsers keep
/// them as long as on a public one, and forget them when their person signs out.
struct CachePolicy: Sendable, Equatable {
    /// For URLs that carry the current `?v=`: the bytes behind them never change.
    let immutable: String
    /// Without `?v=`, or with a stale one: current bytes, kept briefly, since the file may change.
    let short: String
    /// Photo JSON changes with every comment: always revalidate (cheap, thanks to the ETag).
    let revalidate: String

    init(private isPrivate: Bool) {
        let who = isPrivate ? "private" : "public"
        immutable = who + ", max-age=31536000, immutable"
        short = who + ", max-age=60"
        revalidate = isPrivate ? "private, no-cache" : "no-cache"
    }

    /// A public library's.
    static let `public` = CachePolicy(private: false)

    /// The Cache-Control for an image of a photo at `version`.
    func cacheControl(_ request: HTTPRequest, version: String) -> String {
        PhotoCaching.carriesVersion(request.queryString, version) ? immutable : short
    }
}
