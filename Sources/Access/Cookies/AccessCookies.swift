/// The cookies of sessions: their names and attributes. Always `HttpOnly` (no script reads
/// them), `SameSite=Lax` (not sent with another site's subrequests or forms), `Path=/`; and when
/// the server is reached over https (`publicURL`), `Secure` with a `__Host-` name, which a
/// browser keeps only from a secure origin, for this host alone and every path.
package struct AccessCookies: Sendable {
    let secure: Bool
    /// The session cookie's name.
    package let session: String
    /// The name of a share link's password session, before the link's id.
    let sharePrefixText: String
    /// The same names as bytes, compared with a request's Cookie field.
    let sessionName: [UInt8]
    let sharePrefix: [UInt8]

    init(secure: Bool) {
        self.secure = secure
        let prefix = secure ? "__Host-" : ""
        session = prefix + "photoscroll-session"
        sharePrefixText = prefix + "photoscroll-share-"
        sessionName = Array(session.utf8)
        sharePrefix = Array(sharePrefixText.utf8)
    }

    /// The name of the cookie that opens share link `id` once its password was given.
    package func shareName(_ id: Int) -> String { sharePrefixText + String(id) }

    /// `Set-Cookie` for `value`, kept by the browser for `seconds`.
    package func set(_ name: String, _ value: String, seconds: Int) -> String {
        "\(name)=\(value); Path=/; Max-Age=\(max(0, seconds)); HttpOnly; SameSite=Lax" + (secure ? "; Secure" : "")
    }

    /// `Set-Cookie` that makes the browser forget `name`.
    package func clear(_ name: String) -> String {
        "\(name)=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax" + (secure ? "; Secure" : "")
    }
}
