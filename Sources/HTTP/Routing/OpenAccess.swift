/// Anyone may: the rule of routes added to a router that does not require rules.
public struct OpenAccess: AccessRule {
    public init() {}
    @inline(__always)
    public func admit(_ request: HTTPRequest) -> Admission { .granted }
}
