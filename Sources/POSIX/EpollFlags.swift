public import CShims

/// epoll interest and readiness bits, named here so no other module needs the C headers.
/// Computed and inlinable: each reads as the constant itself where it is used.
public enum EpollFlags {
    @inlinable public static var readable: UInt32 { EPOLLIN.rawValue }
    @inlinable public static var writable: UInt32 { EPOLLOUT.rawValue }
    @inlinable public static var peerClosed: UInt32 { EPOLLRDHUP.rawValue }
    @inlinable public static var edgeTriggered: UInt32 { EPOLLET.rawValue }
    @inlinable public static var error: UInt32 { EPOLLERR.rawValue }
    @inlinable public static var hangUp: UInt32 { EPOLLHUP.rawValue }
}
