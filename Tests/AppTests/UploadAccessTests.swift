import Access
import Foundation
import HTTP
import Uploads
import XCTest
@testable import App

/// Who may add photos, over a real socket to the whole application's router: a member signed
/// in uploads into a private library; a stranger, and a share link's holder, are refused and
/// nothing is written; a public library lets this machine add photos and nobody else unless
/// signed in.
final class UploadAccessTests: XCTestCase {
    /// The live fixture's server, closed when the test ends.
    private func serve(_ fixture: AccessFixture) -> TestClient {
        addTeardownBlock { fixture.close() }
        return fixture.client
    }

    /// A photo `SecretRenderer` reads: its size, then a line that makes its bytes its own.
    private static func photo(_ name: String) -> [UInt8] { Array("640x480\n\(name)\n".utf8) }

    /// tus creation-with-upload of a whole photo (`bytes`, else `photo(name)`), at `/uploads` or under a link's `/s/{token}`.
    private func upload(_ server: TestClient, _ name: String, at prefix: String = "", bytes: [UInt8]? = nil, metadata: String = "",
                        headers extra: [(String, String)] = []) throws -> HTTPClientResponse {
        let bytes = bytes ?? Self.photo(name)
        var headers: HTTPHeaders = ["Tus-Resumable": "1.0.0", "Upload-Length": String(bytes.count),
                                    "Upload-Metadata": "filename " + Data(name.utf8).base64EncodedString() + metadata,
                                    "Content-Type": "application/offset+octet-stream"]
        for (field, value) in extra { headers.add(field, value) }
        return try HTTPClient.request(.POST, url: "http://127.0.0.1:\(server.port)\(prefix)/uploads", headers: headers, body: bytes, timeoutSeconds: 30)
    }

    /// A tus request to an upload's URL (`path` from a Location).
    private func tus(_ server: TestClient, _ method: HTTPMethod, _ path: String, offset: Int? = nil, body: [UInt8] = [],
                     headers extra: [(String, String)] = []) throws -> HTTPClientResponse {
        var headers: HTTPHeaders = ["Tus-Resumable": "1.0.0"]
        if let offset {
            headers.add("Upload-Offset", String(offset))
            headers.add("Content-Type", "application/offset+octet-stream")
        }
        for (field, value) in extra { headers.add(field, value) }
        return try HTTPClient.request(method, url: "http://127.0.0.1:\(server.port)\(path)", headers: headers, body: body, timeoutSeconds: 30)
    }

    /// tus creation without data: the new upload's path.
    private func created(_ server: TestClient, length: Int, at prefix: String, headers extra: [(String, String)] = []) throws -> String {
        var headers: HTTPHeaders = ["Tus-Resumable": "1.0.0", "Upload-Length": String(length),
                                    "Upload-Metadata": "filename " + Data("later.jpg".utf8).base64EncodedString()]
        for (field, value) in extra { headers.add(field, value) }
        let answer = try HTTPClient.request(.POST, url: "http://127.0.0.1:\(server.port)\(prefix)/uploads", headers: headers, timeoutSeconds: 30)
        XCTAssertEqual(answer.status, 201, answer.text)
        let location = try XCTUnwrap(answer.headers["Location"])
        XCTAssertTrue(location.hasPrefix(prefix + "/uploads/"), location)
        return location
    }

    private func uploadsInProgress(_ fixture: AccessFixture) -> Int {
        ((try? FileManager.default.contentsOfDirectory(atPath: fixture.root + "/data/uploads")) ?? []).count
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

    private func signIn(_ server: TestClient, _ name: String, _ password: String) throws -> String {
        let answer = try HTTPClient.request(.POST, url: "http://127.0.0.1:\(server.port)/session", headers: ["Content-Type": "application/json"],
                                            body: Array("{\"username\":\"\(name)\",\"password\":\"\(password)\"}".utf8))
        XCTAssertEqual(answer.status, 204, answer.text)
        return try XCTUnwrap(answer.headers["Set-Cookie"]?.split(separator: ";").first.map(String.init))
    }

    func testAMemberUploadsIntoAPrivateLibraryAndAStrangerOrALinkHolderCannot() throws {
        let f = try AccessFixture(.live)
        let server = serve(f)
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

        // The holder of a link to a folder, unlocked with its password, holds a cookie: not a member's.
        let link = try f.share(ShareRequest(target: .folder(f.folders["trip"]!), expiresAt: nil, password: "open sesame"))
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

    func testAnUploadNamingAnAlbumLandsInTheUploadsFolderAndJoinsTheAlbum() throws {
        let f = try AccessFixture(.live)
        let server = serve(f)
        let before = photoFiles(f)
        let member = try signIn(server, "ben", AccessFixture.memberPassword)
        let picks = f.albums["picks"]!
        let field = { (key: String, value: String) in ",\(key) " + Data(value.utf8).base64EncodedString() }
        let unknown = try upload(server, "nowhere.jpg", metadata: field("album", "999999"), headers: [("Cookie", member)])
        XCTAssertEqual(unknown.status, 400, unknown.text)
        XCTAssertEqual(photoFiles(f), before, "refused before a byte was kept")

        let landed = try upload(server, "kept.jpg", metadata: field("album", String(picks)), headers: [("Cookie", member)])
        XCTAssertEqual(landed.status, 201, landed.text)
        let id = try XCTUnwrap(landed.headers["Photo-ID"].flatMap(Int.init))
        XCTAssertEqual(photoFiles(f).subtracting(before), ["Uploads/2024/05/kept.jpg"], "a folder by date, as any upload: an album is no place")
        XCTAssertEqual(try f.application.collection.album(picks)?.photoIDs, [f.photos["a2"]!, f.photos["b1"]!, id])
        // The same bytes again: nothing stored, and the photo already in the album stays once.
        let again = try upload(server, "kept-again.jpg", bytes: Self.photo("kept.jpg"), metadata: field("album", String(picks)),
                               headers: [("Cookie", member)])
        XCTAssertEqual(again.status, 201, again.text)
        XCTAssertEqual(try f.application.collection.album(picks)?.photoIDs.count, 3)
    }

    func testAPublicLibraryLetsThisMachineAddPhotosAndOthersOnlySignedIn() throws {
        // Behind a proxy on this machine, so a request can come from afar over loopback.
        let f = try AccessFixture(.live) { $0.access = "public"; $0.trustedProxies = "127.0.0.1" }
        let server = serve(f)
        let here = try upload(server, "here.jpg")
        XCTAssertEqual(here.status, 201, here.text)
        let afar = try upload(server, "afar.jpg", headers: [("X-Forwarded-For", "203.0.113.7")])
        XCTAssertEqual(afar.status, 401, afar.text)
        let member = try signIn(server, "ben", AccessFixture.memberPassword)
        let signedIn = try upload(server, "afar.jpg", headers: [("X-Forwarded-For", "203.0.113.7"), ("Cookie", member)])
        XCTAssertEqual(signedIn.status, 201, signedIn.text)
        XCTAssertEqual(photoFiles(f).filter { $0.hasPrefix("Uploads/") }, Set(["Uploads/2024/05/here.jpg", "Uploads/2024/05/afar.jpg"]))
    }

    func testAnUploadLinkAddsPhotosToItsAlbumOnlyAndReachesOnlyItsOwnUploads() throws {
        let f = try AccessFixture(.live)
        let server = serve(f)
        let base = "http://127.0.0.1:\(server.port)"
        let trip = f.folders["trip"]!, home = f.folders["home"]!
        let link = try f.share(ShareRequest(target: .folder(trip), expiresAt: nil, upload: true))
        let other = try f.share(ShareRequest(target: .folder(trip), expiresAt: nil, upload: true))
        let at = "/s/" + link.token
        let before = photoFiles(f)

        // Metadata naming an album and a folder of its own is not read: the photo goes into the link's folder.
        let field = { (key: String, value: String) in ",\(key) " + Data(value.utf8).base64EncodedString() }
        let added = try upload(server, "new.jpg", at: at, metadata: field("album", String(home)) + field("folder", "elsewhere"))
        XCTAssertEqual(added.status, 201, added.text)
        let id = try XCTUnwrap(added.headers["Photo-ID"].flatMap(Int.init))
        let location = try XCTUnwrap(added.headers["Location"])
        XCTAssertTrue(location.hasPrefix(at + "/uploads/"), location)
        XCTAssertEqual(added.headers["Content-Location"], "\(at)/photos/\(id)")
        XCTAssertEqual(photoFiles(f).subtracting(before), ["trip/new.jpg"])
        // Listed under the link, and the upload's own answer says where the photo is without its folder.
        let listed = try HTTPClient.request(.GET, url: base + at + "/photos")
        XCTAssertEqual(listed.status, 200)
        XCTAssertTrue(listed.text.contains("\"id\":\(id)"), listed.text)
        let status = try tus(server, .GET, location)
        XCTAssertEqual(status.status, 200, status.text)
        XCTAssertFalse(status.text.contains("trip/"), status.text)

        // The form, with album and folder fields: the album still.
        let form = try HTTPClient.request(.POST, url: base + at + "/uploads/form", headers: ["Content-Type": "multipart/form-data; boundary=b"],
                                          body: Array(("--b\r\nContent-Disposition: form-data; name=\"folder\"\r\n\r\nelsewhere\r\n"
                                                       + "--b\r\nContent-Disposition: form-data; name=\"album\"\r\n\r\n\(home)\r\n"
                                                       + "--b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"../f.jpg\"\r\n\r\n640x480\nf\n\r\n--b--\r\n").utf8))
        XCTAssertEqual(form.status, 201, form.text)
        XCTAssertFalse(form.text.contains("trip/"), form.text)
        // Bytes the library holds outside the album are stored in it all the same: pointing at
        // the other photo would show the link's holder what the link does not.
        let b1 = try XCTUnwrap(FileManager.default.contents(atPath: f.root + "/photos/home/b1.jpg"))
        let copy = try upload(server, "copy.jpg", at: at, bytes: Array(b1))
        XCTAssertEqual(copy.status, 201, copy.text)
        XCTAssertEqual(copy.headers["Photo-Duplicate"], "false")
        XCTAssertNotEqual(copy.headers["Photo-ID"], String(f.photos["b1"]!))
        let again = try upload(server, "again.jpg", at: at, bytes: Array(b1))
        XCTAssertEqual(again.headers["Photo-Duplicate"], "true", again.text)
        XCTAssertEqual(again.headers["Photo-ID"], copy.headers["Photo-ID"])
        XCTAssertEqual(photoFiles(f).subtracting(before), ["trip/new.jpg", "trip/f.jpg", "trip/copy.jpg"])

        // Another link's upload, the owner's, and the link's own upload asked by the owner: not there (404, as for no upload at all).
        let owner = try signIn(server, "ana", AccessFixture.ownerPassword)
        let owners = try created(server, length: 100, at: "", headers: [("Cookie", owner)])
        let others = try created(server, length: 100, at: "/s/" + other.token)
        let mine = try created(server, length: 100, at: at)
        // The same ids asked through this link: `/s/{this token}/uploads/{id}`.
        for path in [at + owners, at + String(others.dropFirst(("/s/" + other.token).count))] {
            for (method, offset) in [(HTTPMethod.GET, nil), (.PATCH, 0), (.DELETE, nil)] as [(HTTPMethod, Int?)] {
                let answer = try tus(server, method, path, offset: offset, body: offset == nil ? [] : Array("640x".utf8))
                XCTAssertEqual(answer.status, 404, "\(method) \(path): \(answer.text)")
                XCTAssertEqual(answer.headers["Content-Type"], "application/problem+json")
            }
        }
        XCTAssertEqual(try tus(server, .GET, String(mine.dropFirst(at.count)), headers: [("Cookie", owner)]).status, 404)
        XCTAssertEqual(try tus(server, .GET, mine).status, 200)
        XCTAssertEqual(try tus(server, .GET, owners, headers: [("Cookie", owner)]).status, 200, "the owner's upload is untouched")
        // From another site's page: refused as every change is.
        let crossSite = try upload(server, "evil.jpg", at: at, headers: [("Origin", "https://evil.example")])
        XCTAssertEqual(crossSite.status, 403, crossSite.text)
        XCTAssertEqual(photoFiles(f).subtracting(before).count, 3)
    }

    func testAViewOnlyExpiredLockedOrRevokedLinkAddsNothing() throws {
        let f = try AccessFixture(.live)
        let server = serve(f)
        let base = "http://127.0.0.1:\(server.port)"
        let trip = f.folders["trip"]!
        let viewOnly = try f.share(ShareRequest(target: .folder(trip), expiresAt: nil))
        let expiring = try f.share(ShareRequest(target: .folder(trip), expiresAt: f.clock.wall + 100, upload: true))
        let locked = try f.share(ShareRequest(target: .folder(trip), expiresAt: nil, password: "open sesame", upload: true))
        let revoked = try f.share(ShareRequest(target: .folder(trip), expiresAt: nil, upload: true))
        let before = photoFiles(f)

        // Refused before any byte is written: no upload in the data folder, nothing in the photos folder.
        for (token, want) in [(viewOnly.token, 404), (locked.token, 401)] {
            let answer = try upload(server, "no.jpg", at: "/s/" + token)
            XCTAssertEqual(answer.status, want, answer.text)
            XCTAssertEqual(answer.headers["Content-Type"], "application/problem+json")
            let form = try HTTPClient.request(.POST, url: base + "/s/\(token)/uploads/form", headers: ["Content-Type": "multipart/form-data; boundary=b"],
                                              body: Array("--b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"f.jpg\"\r\n\r\n640x480\nf\n\r\n--b--\r\n".utf8))
            XCTAssertEqual(form.status, want, form.text)
        }
        XCTAssertEqual(uploadsInProgress(f), 0)
        // The password given, the same link adds.
        let unlock = try HTTPClient.request(.POST, url: base + "/s/\(locked.token)/unlock", headers: ["Content-Type": "application/json"],
                                            body: Array(#"{"password":"open sesame"}"#.utf8))
        let cookie = try XCTUnwrap(unlock.headers["Set-Cookie"]?.split(separator: ";").first.map(String.init))
        XCTAssertEqual(try upload(server, "unlocked.jpg", at: "/s/" + locked.token, headers: [("Cookie", cookie)]).status, 201)

        // Half sent, then the link expires (or is revoked): the rest is refused and nothing lands.
        let bytes = Self.photo("late.jpg")
        let expiringUpload = try created(server, length: bytes.count, at: "/s/" + expiring.token)
        let revokedUpload = try created(server, length: bytes.count, at: "/s/" + revoked.token)
        for path in [expiringUpload, revokedUpload] {
            XCTAssertEqual(try tus(server, .PATCH, path, offset: 0, body: Array(bytes.prefix(5))).status, 204)
        }
        f.clock.advance(by: 101)
        let owner = try signIn(server, "ana", AccessFixture.ownerPassword)
        let revoke = try HTTPClient.request(.DELETE, url: base + "/shares/\(revoked.id)", headers: ["Cookie": owner])
        XCTAssertEqual(revoke.status, 204, revoke.text)
        for path in [expiringUpload, revokedUpload] {
            let rest = try tus(server, .PATCH, path, offset: 5, body: Array(bytes.dropFirst(5)))
            XCTAssertEqual(rest.status, 404, rest.text)
            XCTAssertEqual(rest.headers["Content-Type"], "application/problem+json")
        }
        XCTAssertEqual(photoFiles(f).subtracting(before), ["trip/unlocked.jpg"])
        // Revoked in the middle of the last request: whichever the server sees first, the photo is not added.
        let racing = try f.share(ShareRequest(target: .folder(trip), expiresAt: nil, upload: true))
        let racingUpload = try created(server, length: bytes.count, at: "/s/" + racing.token)
        XCTAssertEqual(try tus(server, .GET, racingUpload).status, 200)
        try f.store.revokeShare(id: racing.id)
        XCTAssertEqual(try tus(server, .PATCH, racingUpload, offset: 0, body: bytes).status, 404)
        XCTAssertEqual(photoFiles(f).subtracting(before), ["trip/unlocked.jpg"])
        // A request let in just before the link went reaches the completion, which asks the
        // database again: the bytes are dropped, not placed.
        let late = try f.share(ShareRequest(target: .folder(trip), expiresAt: nil, upload: true))
        let lateUpload = try created(server, length: bytes.count, at: "/s/" + late.token)
        let service = f.application.uploads
        let id = try XCTUnwrap(UploadID(String(lateUpload.split(separator: "/").last!)))
        let record = try XCTUnwrap(try service.store.record(id))
        XCTAssertEqual(record.share, late.id)
        XCTAssertTrue(FileManager.default.createFile(atPath: service.files.path(id), contents: Data(bytes)))
        try f.store.revokeShare(id: late.id)
        XCTAssertThrowsError(try service.complete(record)) { error in XCTAssertEqual((error as? HTTPError)?.status, .notFound) }
        XCTAssertFalse(FileManager.default.fileExists(atPath: service.files.path(id)), "the bytes are dropped")
        XCTAssertNil(try service.store.record(id))
        XCTAssertEqual(photoFiles(f).subtracting(before), ["trip/unlocked.jpg"])
    }
}
