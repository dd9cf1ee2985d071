/// What `parseRequestHead` found in the bytes so far.
enum HeadParseResult {
    /// A whole head, `consumed` bytes long (leading empty lines included).
    case complete(RequestHead, consumed: Int)
    /// The head is not complete yet; call again with more bytes.
    case needMore
    /// The head is malformed or over a limit; answer the error and close.
    case invalid(RequestError)
}
