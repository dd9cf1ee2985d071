import Comments
import Observability

extension Comment {
    /// The comment's JSON text (a live event's data).
    var json: String { (try? JSONWriter.string(CommentRecord(self))) ?? "{}" }
}
