import Access
import HTTP

/// Who may add and change photos (uploads, favourites, albums, the trash): a signed-in owner or
/// member (`Rule.Kind.manage` lets no one else reach these routes); on a public library also a
/// person at this machine (`ThisMachine`: over loopback, naming a loopback host, through no proxy); never a page of
/// another site acting through that person's browser. Without an access control (the routes'
/// own tests), the machine only.
struct ManagePermission: Sendable {
    let clientAddress: ClientAddress
    var access: AccessControl? = nil

    /// Throws 403 unless the request may change the library.
    func check(_ request: HTTPRequest) throws {
        if let access, try access.mayManage(request) { return }
        guard access?.mode != .private, access?.isThisMachine(request) ?? ThisMachine.asks(request) else {
            throw HTTPError(.forbidden, "Photos can be added and changed only from the machine the server runs on (loopback) until sign-in is set up.")
        }
        if let site = request.headers["Sec-Fetch-Site"]?.lowercased(), site != "same-origin" && site != "none" {
            throw HTTPError(.forbidden, "A page of another site cannot add or change photos here.")
        }
        if let origin = request.headers["Origin"], !Self.isSameOrigin(origin, host: request.headers["Host"]) {
            throw HTTPError(.forbidden, "A page of another site (\(origin.prefix(100))) cannot add or change photos here.")
        }
    }

    /// Whether an `Origin` names the host the request was sent to.
    static func isSameOrigin(_ origin: String, host: String?) -> Bool {
        guard let host, let separator = origin.range(of: "://") else { return false }
        return origin[separator.upperBound...].lowercased() == host.lowercased()
    }
}
