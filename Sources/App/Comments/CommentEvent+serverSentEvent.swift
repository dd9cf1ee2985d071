import Comments
import HTTP
import Observability

extension CommentEvent {
    /// The event as one Server-Sent Events frame.
    ///
    /// A new comment carries `id: <comment id>`, so the browser's `Last-Event-ID` is the newest
    /// comment it has seen and a reconnect replays exactly the ones after it. A deletion carries no
    /// `id:` line on purpose: it leaves that cursor where it is, since its comment id is older
    /// (a reconnect replays deletions from the deletion log instead).
    var serverSentEvent: String {
        switch self {
        case .added(let comment):
            "id: \(comment.id)\nevent: comment\ndata: \(comment.json)\n\n"
        case .deleted(let photoID, let commentID):
            "event: delete\ndata: \((try? JSONWriter.string(CommentDeletion(id: commentID, photoId: photoID))) ?? "{}")\n\n"
        }
    }

    /// Sent first on every stream: how long the browser waits before reconnecting, in milliseconds.
    static let retryPreamble = "retry: 2000\n\n"

    /// A comment line that carries nothing but keeps proxies from closing an idle stream.
    static let keepAlive = ": keep-alive\n\n"
}
