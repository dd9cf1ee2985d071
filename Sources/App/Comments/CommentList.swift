import Comments
import HTTP

/// `{"comments":[…]}`, the body of a thread listing.
struct CommentList: ResponseEncodable {
    let comments: [CommentRecord]

    init(_ comments: [Comment]) { self.comments = comments.map(CommentRecord.init) }
}
