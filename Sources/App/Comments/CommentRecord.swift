import Comments
import HTTP

/// A comment as clients see it, members in this order:
/// `{"id":17,"photoId":3,"author":"Ana","text":"Looks like a Pip","createdAt":"2026-11-29T10:31:02Z","verified":false}`.
///
/// Author and text are data: `JSONWriter` escapes them, and nothing marks them up as HTML.
/// `verified` is true when the author is the account of the signed-in person who posted it.
struct CommentRecord: ResponseEncodable {
    let id: Int
    let photoId: Int
    let author: String
    let text: String
    let createdAt: String
    let verified: Bool

    init(_ comment: Comment) {
        id = comment.id
        photoId = comment.photoID
        author = comment.author
        text = comment.text
        createdAt = comment.createdAtText
        verified = comment.verified
    }
}
