import Observability
import Comments
import HTTP

extension Comment {
    /// `{"id":17,"photoId":3,"author":"Ana","text":"Looks like a Pip","createdAt":"2026-11-29T10:31:02Z"}`.
    ///
    /// Written by hand in the documented key order. Author and text only ever pass through
    /// `jsonString`: they are data, escaped for JSON and never marked up as HTML.
    var json: String {
        "{\"id\":\(id),\"photoId\":\(photoID),\"author\":\(jsonString(author)),\"text\":\(jsonString(text)),\"createdAt\":\"\(createdAtText)\"}"
    }

    /// `{"comments":[…]}`, the body of a thread listing.
    static func listJSON(_ comments: [Comment]) -> String {
        "{\"comments\":[" + comments.map(\.json).joined(separator: ",") + "]}"
    }
}

extension HTTPResponse {
    /// A JSON body already rendered to text.
    static func json(text: String, status: HTTPStatus = .ok, headers: HTTPHeaders = HTTPHeaders()) -> HTTPResponse {
        var headers = headers
        // Comment text is user input: make sure no browser ever sniffs a JSON body into HTML.
        headers.set("X-Content-Type-Options", "nosniff")
        return HTTPResponse(status: status, contentType: "application/json; charset=utf-8", bytes: Array(text.utf8), headers: headers)
    }
}
