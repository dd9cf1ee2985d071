import Access
import Foundation
import HTTP
import XCTest
@testable import App

/// Who may add photos, over a real socket to the whole application's router: a member signed
/// in uploads into a private library; a stranger, and a share link's holder, are refused and
/// nothing is written; a public library lets this machine add photos and nobody else unless
/// signed in.
final class UploadAccessTests: XCTestCase {
    /// The application's router over a socket on port 0.
    private func serve(_ fixture: AccessFixture) throws -> HTTPServer {
        var configuration = fixture.application.serverConfiguration
        configuration.port = 0
        let server = HTTPServer(configuration: configuration, router: fixture.router, logger: .disabled)
        try server.start()
        addTeardownBlock {
            server.shutdown(graceSeconds: 1)
            server.wait()
            fixture.close()
        }
        return server
    }

    /// A photo `SecretRenderer` reads: its size, then a line that makes its bytes its own.
    private static func photo(_ name: String) -> [UInt8] { Array("640x480\n\(name)\n".utf8) }

    /// tus creation-with-upload of a whole photo.
    private func upload(_ server: HTTPServer, _ name: String, headers extra: [(String, String)] = []) throws -> HTTPClientResponse {
        let bytes = Self.photo(name)
        var headers: HTTPHeaders = ["Tus-Resumable": "1.0.0", "Upload-Length": String(bytes.count),
                                    "Upload-Metadata": "filename " + Data(name.utf8).base64EncodedString(),
                                    "Content-Type": "application/offset+octet-stream"]
        for (field, value) in extra { headers.add(field, value) }
        return try HTTPClient.request(.POST, url: "http://127.0.0.1:\(server.port)/uploads", headers: headers, body: bytes, timeoutSeconds: 30)
    }

    /// Every regular file under the fixture's photos folder, relative.
    private func photoFiles(_ fixture: AccessFixture) -> Set<String> {
        let photos = fixture.root + "/photos"
        var files: Set<String> = []
        let walk = FileManager.default.enumerator(atPath: photos)
        while let path = walk?.nextObject() as? String {
            var folder: ObjCBool = false
            if FileManager.default.fileExists(atPath: photos + "/" + path, isDirectory: &folder), !folder.boolValue { files.insert(path) }
        }
        return files
    }

    private func signIn(_ server: HTTPServer, _ name: String, _ password: String) throws -> String {
        let answer = try HTTPClient.request(.POST, url: "http://127.0.0.1:\(server.port)/session", headers: ["Content-Type": "application/json"],
                                            body: Array("{\"username\":\"\(name)\",\"password\":\"\(password)\"}".utf8))
        XCTAssertEqual(answer.status, 204, answer.text)
        return try XCTUnwrap(answer.headers["Set-Cookie"]?.split(separator: ";").first.map(String.init))
    }

    func testAMemberUploadsIntoAPrivateLibraryAndAStrangerOrALinkHolderCannot() throws {
        let f = try AccessFixture()
        let server = try serve(f)
        let base = "http://127.0.0.1:\(server.port)"
        let before = photoFiles(f)

        // A stranger, though on this machine: the library is private.
        let stranger = try upload(server, "stranger.jpg")
        XCTAssertEqual(stranger.status, 401, stranger.text)
        XCTAssertEqual(stranger.headers["Content-Type"], "application/problem+json")
        let form = try HTTPClient.request(.POST, url: base + "/uploads/form", headers: ["Content-Type": "multipart/form-data; boundary=b"],
                                          body: Array("--b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"f.jpg\"\r\n\r\n640x480\nf\n\r\n--b--\r\n".utf8))
        XCTAssertEqual(form.status, 401, form.text)
        XCTAssertEqual(try HTTPClient.request(.PUT, url: base + "/favourites/\(f.photos["a1"]!)").status, 401)

        // The holder of a link to an album, unlocked with its password, holds a cookie: not a member's.
        let link = try f.share(ShareRequest(target: .album(f.albums["trip"]!), expiresAt: nil, password: "open sesame"))
        let unlocked = try HTTPClient.request(.POST, url: base + "/s/\(link.token)/unlock", headers: ["Content-Type": "application/json"],
                                              body: Array(#"{"password":"open sesame"}"#.utf8))
        XCTAssertEqual(unlocked.status, 204, unlocked.text)
        let holder = try XCTUnwrap(unlocked.headers["Set-Cookie"]?.split(separator: ";").first.map(String.init))
        XCTAssertEqual(try upload(server, "holder.jpg", headers: [("Cookie", holder)]).status, 401)
        XCTAssertEqual(photoFiles(f), before, "nothing was written for those refused")
        XCTAssertEqual((try? FileManager.default.contentsOfDirectory(atPath: f.root + "/data/uploads")) ?? [], [])

        // A member, signed in: the photo lands in Uploads/ at its date, listed with an id, and may be favoured.
        let member = try signIn(server, "ben", AccessFixture.memberPassword)
        let landed = try upload(server, "from-ben.jpg", headers: [("Cookie", member)])
        XCTAssertEqual(landed.status, 201, landed.text)
        let id = try XCTUnwrap(landed.headers["Photo-ID"].flatMap(Int.init))
        XCTAssertEqual(photoFiles(f).subtracting(before), ["Uploads/2024/05/from-ben.jpg"])
        XCTAssertEqual(try HTTPClient.request(.GET, url: base + "/photos/\(id)", headers: ["Cookie": member]).status, 200)
        XCTAssertEqual(try HTTPClient.request(.PUT, url: base + "/favourites/\(id)", headers: ["Cookie": member]).status, 204)
        // …but not from another site's page, signed in or not.
        let crossSite = try upload(server, "evil.jpg", headers: [("Cookie", member), ("Origin", "https://evil.example")])
        XCTAssertEqual(crossSite.status, 403, crossSite.text)
        XCTAssertEqual(photoFiles(f).subtracting(before).count, 1)
    }

    func testAPublicLibraryLetsThisMachineAddPhotosAndOthersOnlySignedIn() throws {
        // Behind a proxy on this machine, so a request can come from afar over loopback.
        let f = try AccessFixture { $0.access = "public"; $0.trustedProxies = "127.0.0.1" }
        let server = try serve(f)
        let here = try upload(server, "here.jpg")
        XCTAssertEqual(here.status, 201, here.text)
        let afar = try upload(server, "afar.jpg", headers: [("X-Forwarded-For", "203.0.113.7")])
        XCTAssertEqual(afar.status, 401, afar.text)
        let member = try signIn(server, "ben", AccessFixture.memberPassword)
        let signedIn = try upload(server, "afar.jpg", headers: [("X-Forwarded-For", "203.0.113.7"), ("Cookie", member)])
        XCTAssertEqual(signedIn.status, 201, signedIn.text)
        XCTAssertEqual(photoFiles(f).filter { $0.hasPrefix("Uploads/") }, Set(["Uploads/2024/05/here.jpg", "Uploads/2024/05/afar.jpg"]))
    }
}
