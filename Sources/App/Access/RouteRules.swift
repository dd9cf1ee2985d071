import Access
import HTTP

/// How a registration names its routes' rules: from the application's access control, or none
/// at all, for a router made without one (tests of the routes alone), whose routes are open.
struct RouteRules: Sendable {
    let control: AccessControl?

    /// No access control: every route is open.
    static let none = RouteRules(control: nil)

    func callAsFunction(_ kind: Rule.Kind) -> (any AccessRule)? {
        control.map { Rule(kind: kind, control: $0) }
    }
}

extension RouteRules {
    /// `response` bound to the access of `request` (`AccessControl.bound`); as it is without access control.
    func bound(_ response: HTTPResponse, to request: HTTPRequest) throws -> HTTPResponse {
        try control?.bound(response, to: request) ?? response
    }
}
