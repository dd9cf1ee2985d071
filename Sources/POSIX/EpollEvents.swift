public import CShims

/// A reusable buffer of ready events filled by `Epoll.wait`.
public struct EpollEvents: ~Copyable {
    @usableFromInline let storage: UnsafeMutableBufferPointer<epoll_event>
    /// How many events the last wait stored.
    public var count = 0

    public init(capacity: Int) { storage = .allocate(capacity: capacity) }
    deinit { storage.deallocate() }

    /// The descriptor and readiness bits of event `index`.
    @inlinable
    public subscript(index: Int) -> (fd: Int32, events: UInt32) { (storage[index].data.fd, storage[index].events) }
}
