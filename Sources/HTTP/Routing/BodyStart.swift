/// What a streaming route decides once it has read a request's head.
public enum BodyStart: Sendable {
    /// Read the body into this sink.
    case sink(any RequestBodySink)
    /// Answer now, without reading the body (the connection closes after it if a body was announced).
    case response(HTTPResponse)
}
