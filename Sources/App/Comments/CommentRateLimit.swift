import Comments

/// Where the comment rate limit is kept: this process's memory (one server), or the shared
/// database, so that replicas draw on one bucket per client.
enum CommentRateLimit: Sendable {
    case memory(CommentRateLimiter)
    case shared(SQLCommentRateLimiter)

    /// Comments per minute allowed; 0 turns the limit off.
    var perMinute: Int {
        switch self {
        case .memory(let limiter): limiter.perMinute
        case .shared(let limiter): limiter.perMinute
        }
    }

    /// Takes one token for `client`; throws when the shared database cannot answer.
    func take(for client: String) throws -> CommentRateLimiter.Decision {
        switch self {
        case .memory(let limiter): return limiter.take(for: client)
        case .shared(let limiter): return try limiter.take(for: client).map { .limited(retryAfterSeconds: $0) } ?? .allowed
        }
    }
}
