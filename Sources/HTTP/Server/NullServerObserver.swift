/// An observer that ignores everything.
public struct NullServerObserver: HTTPServerObserver {
    public init() {}
    public func connectionOpened() {}
    public func connectionClosed() {}
    public func requestCompleted(_ request: CompletedRequest) {}
}
