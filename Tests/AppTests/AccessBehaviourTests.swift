@testable import Access
import Foundation
@testable import App
@testable import HTTP
@testable import Library
import XCTest

/// Sessions, cookies, changes from other sites, throttling, expiry, links and what they show,
/// on a private library in-process (the responder the server's loops use).
final class AccessBehaviourTests: XCTestCase {
    var f: AccessFixture!

    override func setUpWithError() throws {
        f = try AccessFixture()
    }

    override func tearDown() {
        f?.close()
        f = nil
    }

    func testTheSessionCookieIsHttpOnlyLaxForEveryPathAndSecureWithAHostPrefixOverHTTPS() throws {
        let plain = f.post("/session", json: #"{"username":"ana","password":"correct horse"}"#)
        let cookie = try XCTUnwrap(plain.headers["Set-Cookie"])
        XCTAssertTrue(cookie.hasPrefix("photoscroll-session="), cookie)
        for attribute in ["Path=/", "HttpOnly", "SameSite=Lax", "Max-Age=2592000"] { XCTAssertTrue(cookie.contains(attribute), cookie) }
        XCTAssertFalse(cookie.contains("Secure"), cookie)
        XCTAssertEqual(plain.headers["Cache-Control"], "no-store")

        let secure = try AccessFixture { $0.publicURL = "https://photos.example.org" }
        defer { secure.close() }
        let answer = secure.post("/session", json: #"{"username":"ana","password":"correct horse"}"#,
                                 headers: ["Origin": "https://photos.example.org"])
        let hostCookie = try XCTUnwrap(answer.headers["Set-Cookie"])
        XCTAssertTrue(hostCookie.hasPrefix("__Host-photoscroll-session="), hostCookie)
        for attribute in ["Path=/", "HttpOnly", "SameSite=Lax", "Secure"] { XCTAssertTrue(hostCookie.contains(attribute), hostCookie) }
        XCTAssertFalse(hostCookie.contains("Domain"), "a __Host- cookie has no Domain")
        let signedIn = try XCTUnwrap(AccessFixture.cookie(answer))
        XCTAssertEqual(secure.request(.GET, "/photos", headers: ["Cookie": signedIn]).status, .ok)
        // The plain name is not read when the server is reached over https.
        let plainName = signedIn.replacingOccurrences(of: "__Host-", with: "")
        XCTAssertEqual(secure.request(.GET, "/photos", headers: ["Cookie": plainName]).status, .unauthorized)
    }

    func testASessionIdPlantedBeforeSigningInIsNeverTheOneSignedIn() throws {
        // Mallory signs in as ben and plants the session id in Ana's browser.
        let planted = try f.signIn("ben", AccessFixture.memberPassword)
        let answer = f.post("/session", json: #"{"username":"ana","password":"correct horse"}"#, cookie: planted)
        XCTAssertEqual(answer.status, .noContent)
        let fresh = try XCTUnwrap(AccessFixture.cookie(answer))
        XCTAssertNotEqual(fresh, planted)
        XCTAssertEqual(f.request(.GET, "/session", headers: ["Cookie": fresh]).object["username"] as? String, "ana")
        XCTAssertEqual(f.request(.GET, "/session", headers: ["Cookie": planted]).status, .unauthorized, "the planted session ended")
    }

    func testAChangeFromAnotherSitesPageIsRefused() throws {
        let owner = try f.signIn("ana", AccessFixture.ownerPassword)
        let album = f.folders["trip"]!
        let body = "{\"folder\":\(album)}"
        for headers: HTTPHeaders in [["Origin": "https://evil.example"], ["Origin": "null"], ["Sec-Fetch-Site": "cross-site"],
                                     ["Sec-Fetch-Site": "same-site"], ["Origin": "http://photos.test.evil.example"]] {
            XCTAssertEqual(f.post("/shares", json: body, cookie: owner, headers: headers).status, .forbidden, "\(headers.fields)")
        }
        var signOut: HTTPHeaders = ["Origin": "https://evil.example"]
        signOut.add("Cookie", owner)
        XCTAssertEqual(f.request(.DELETE, "/session", headers: signOut).status, .forbidden, "another site cannot sign anyone out")
        XCTAssertEqual(f.post("/photos/\(f.photos["a1"]!)/comments", json: #"{"text":"hi"}"#, cookie: owner,
                              headers: ["Sec-Fetch-Site": "cross-site"]).status, .forbidden)
        // The page's own requests, and programs that send neither field, go on.
        XCTAssertEqual(f.post("/shares", json: body, cookie: owner, headers: ["Origin": "http://photos.test"]).status, .created)
        XCTAssertEqual(f.post("/shares", json: body, cookie: owner, headers: ["Sec-Fetch-Site": "same-origin"]).status, .created)
        XCTAssertEqual(f.post("/shares", json: body, cookie: owner).status, .created)
        // A cross-site GET (a link followed) is not a change.
        XCTAssertEqual(f.request(.GET, "/photos", headers: ["Cookie": owner, "Sec-Fetch-Site": "cross-site"]).status, .ok)
    }

    func testWrongPasswordsAreThrottledPerAccountAndPerAddress() throws {
        func signIn(_ name: String, _ password: String, from address: String) -> TestResponse {
            f.post("/session", json: "{\"username\":\"\(name)\",\"password\":\"\(password)\"}", remoteAddress: address)
        }
        // Five wrong passwords for ana, from five addresses: the sixth try is refused, right or not.
        for i in 1...5 { XCTAssertEqual(signIn("ana", "wrong password", from: "192.0.2.\(i)").status, .unauthorized) }
        let refused = signIn("ana", AccessFixture.ownerPassword, from: "192.0.2.9")
        XCTAssertEqual(refused.status, .tooManyRequests)
        let wait = try XCTUnwrap(Int(refused.headers["Retry-After"] ?? ""))
        XCTAssertTrue((1...60).contains(wait), "\(wait)")
        // ben is not held up by ana's count.
        XCTAssertEqual(signIn("ben", AccessFixture.memberPassword, from: "192.0.2.9").status, .noContent)
        // Five wrong guesses from one address at five names (unknown ones too): that address is refused.
        for name in ["cy", "dee", "ed", "ben", "flo"] { XCTAssertEqual(signIn(name, "wrong password", from: "198.51.100.7").status, .unauthorized) }
        XCTAssertEqual(signIn("ben", AccessFixture.memberPassword, from: "198.51.100.7").status, .tooManyRequests)
        // An IPv6 client counts by its /64.
        for i in 1...5 { XCTAssertEqual(signIn("gus\(i)", "wrong password", from: "2001:db8:1:2::\(i)").status, .unauthorized) }
        XCTAssertEqual(signIn("ben", AccessFixture.memberPassword, from: "2001:db8:1:2:ffff::1").status, .tooManyRequests)
        // The counts drain: a minute on, ana may sign in.
        f.clock.advance(by: 60)
        XCTAssertEqual(signIn("ana", AccessFixture.ownerPassword, from: "192.0.2.9").status, .noContent)
    }

    func testShareLinkPasswordsAreThrottledToo() throws {
        let locked = try f.share(ShareRequest(target: .folder(f.folders["trip"]!), expiresAt: nil, password: "open sesame"))
        for i in 1...5 {
            XCTAssertEqual(f.post("/s/\(locked.token)/unlock", json: #"{"password":"nope"}"#, remoteAddress: "203.0.113.\(i)").status, .forbidden)
        }
        let refused = f.post("/s/\(locked.token)/unlock", json: #"{"password":"open sesame"}"#, remoteAddress: "203.0.113.9")
        XCTAssertEqual(refused.status, .tooManyRequests)
        XCTAssertNotNil(refused.headers["Retry-After"])
    }

    func testTheSetupLinkMakesTheOwnerOnceAndSignsThemIn() throws {
        let empty = try AccessFixture()
        defer { empty.close() }
        // No owner would exist on a fresh server; this fixture has one, so make a server without.
        try empty.store.removeUser(name: "ana")
        XCTAssertEqual(empty.request(.GET, "/session").object["setup"] as? Bool, true)
        let token = try empty.store.makeSetupToken()
        XCTAssertEqual(empty.request(.GET, "/setup?token=\(token)").status, .ok, "the page")
        XCTAssertEqual(empty.post("/setup", json: "{\"token\":\"\(token)\",\"username\":\"zoe\",\"password\":\"short\"}").status, .badRequest)
        let made = empty.post("/setup", json: "{\"token\":\"\(token)\",\"username\":\"zoe\",\"password\":\"zoe's long password\"}")
        XCTAssertEqual(made.status, .noContent)
        let cookie = try XCTUnwrap(AccessFixture.cookie(made))
        XCTAssertEqual(empty.request(.GET, "/session", headers: ["Cookie": cookie]).object["role"] as? String, "owner")
        let again = empty.post("/setup", json: "{\"token\":\"\(token)\",\"username\":\"eve\",\"password\":\"eve's long password\"}")
        XCTAssertEqual(again.status, .forbidden, again.text)
        XCTAssertNil(try empty.store.user(named: "eve"))
        XCTAssertEqual(empty.request(.GET, "/session").object["setup"] as? Bool, false)
    }

    func testAPrivateLibraryAnswersAStrangerTheProbesAndThePageOnly() throws {
        let api = f.request(.GET, "/photos")
        XCTAssertEqual(api.status, .unauthorized)
        XCTAssertEqual(api.headers["Content-Type"], "application/problem+json")
        XCTAssertTrue(api.headers["WWW-Authenticate"]?.hasPrefix("Cookie realm=\"photoscroll\"") ?? false)
        let page = f.request(.GET, "/photos/\(f.photos["a1"]!)/original", headers: ["Sec-Fetch-Mode": "navigate"])
        XCTAssertEqual(page.status, .seeOther)
        XCTAssertEqual(page.headers["Location"], "/?next=/photos/\(f.photos["a1"]!)/original")
        XCTAssertEqual(f.request(.GET, "/").status, .ok)
        XCTAssertEqual(f.request(.GET, "/index.html").status, .ok)
        XCTAssertEqual(f.request(.GET, "/healthz").status, .ok)
        XCTAssertNotEqual(f.request(.GET, "/readyz").status, .unauthorized)
    }

    func testPrivateAnswersAreCachedPrivatelyAndTilesStayImmutable() throws {
        let member = try f.signIn("ben", AccessFixture.memberPassword)
        let a1 = f.photos["a1"]!
        let record = f.request(.GET, "/photos/\(a1)", headers: ["Cookie": member])
        XCTAssertEqual(record.headers["Cache-Control"], "private, no-cache")
        let version = try XCTUnwrap(record.object["version"] as? String)
        for target in ["/photos/\(a1)/tiles/0/0/0.jpg?v=\(version)", "/photos/\(a1)/thumbnail.jpg?v=\(version)"] {
            // Twice: the second answer comes from the encoded hot path.
            for _ in 0..<2 {
                let tile = f.request(.GET, target, headers: ["Cookie": member])
                XCTAssertEqual(tile.status, .ok, target)
                XCTAssertEqual(tile.headers["Cache-Control"], "private, max-age=31536000, immutable", target)
            }
        }
        XCTAssertEqual(f.request(.GET, "/photos/\(a1)/tiles/0/0/0.jpg", headers: ["Cookie": member]).headers["Cache-Control"], "private, max-age=60")
        XCTAssertEqual(f.request(.GET, "/photos/summary", headers: ["Cookie": member]).headers["Cache-Control"], "private, no-cache")
        XCTAssertEqual(f.request(.GET, "/photos/\(a1)/comments", headers: ["Cookie": member]).headers["Cache-Control"], "private, no-cache")
        let info = f.request(.GET, "/iiif/3/\(a1)/0,0,256,256/256,/0/default.jpg?v=\(version)", headers: ["Cookie": member])
        XCTAssertEqual(info.headers["Cache-Control"], "private, max-age=31536000, immutable")
    }

    func testSigningOutEndsTheSessionAndClearsWhatTheBrowserKept() throws {
        let owner = try f.signIn("ana", AccessFixture.ownerPassword)
        XCTAssertEqual(f.request(.GET, "/photos", headers: ["Cookie": owner]).status, .ok)
        let out = f.request(.DELETE, "/session", headers: ["Cookie": owner])
        XCTAssertEqual(out.status, .noContent)
        XCTAssertEqual(out.headers["Clear-Site-Data"], "\"cache\", \"cookies\", \"storage\"")
        XCTAssertTrue(out.headers["Set-Cookie"]?.contains("Max-Age=0") ?? false)
        XCTAssertEqual(f.request(.GET, "/photos", headers: ["Cookie": owner]).status, .unauthorized, "at once, memory included")
    }

    func testAPasswordChangeEndsEverySessionAndKeepsThisBrowserSignedIn() throws {
        let laptop = try f.signIn("ben", AccessFixture.memberPassword)
        let phone = try f.signIn("ben", AccessFixture.memberPassword)
        XCTAssertEqual(f.post("/session/password", json: #"{"current":"wrong password","new":"a whole new password"}"#, cookie: laptop).status,
                       .forbidden)
        XCTAssertEqual(f.post("/session/password", json: #"{"current":"battery staple","new":"short"}"#, cookie: laptop).status, .badRequest)
        let changed = f.post("/session/password", json: #"{"current":"battery staple","new":"a whole new password"}"#, cookie: laptop)
        XCTAssertEqual(changed.status, .noContent)
        let renewed = try XCTUnwrap(AccessFixture.cookie(changed))
        XCTAssertEqual(f.request(.GET, "/photos", headers: ["Cookie": phone]).status, .unauthorized)
        XCTAssertEqual(f.request(.GET, "/photos", headers: ["Cookie": laptop]).status, .unauthorized)
        XCTAssertEqual(f.request(.GET, "/photos", headers: ["Cookie": renewed]).status, .ok)
    }

    func testSessionsEndWhenIdleAndAtTheirLifetimeWhateverIsKeptInMemory() throws {
        let short = try AccessFixture {
            $0.sessionIdleSeconds = 600
            $0.sessionLifetimeSeconds = 3_600
            $0.accessCacheSeconds = 60
        }
        defer { short.close() }
        let idle = try short.signIn("ben", AccessFixture.memberPassword)
        let busy = try short.signIn("ana", AccessFixture.ownerPassword)
        XCTAssertEqual(short.request(.GET, "/photos", headers: ["Cookie": idle]).status, .ok)
        for _ in 0..<5 {
            short.clock.advance(by: 590)
            XCTAssertEqual(short.request(.GET, "/photos", headers: ["Cookie": busy]).status, .ok)
        }
        XCTAssertEqual(short.request(.GET, "/photos", headers: ["Cookie": idle]).status, .unauthorized, "idle for 50 minutes")
        short.clock.advance(by: 700)
        XCTAssertEqual(short.request(.GET, "/photos", headers: ["Cookie": busy]).status, .unauthorized, "past its lifetime")
    }

    func testARevokedLinkIsRefusedAtOnceAndAnExpiredOneOnTheSecond() throws {
        let owner = try f.signIn("ana", AccessFixture.ownerPassword)
        let made = f.post("/shares", json: "{\"folder\":\(f.folders["trip"]!),\"expires\":\"\(ShareRoutes.rfc3339(f.clock.wall + 30))\"}",
                          cookie: owner)
        XCTAssertEqual(made.status, .created, made.text)
        let token = try XCTUnwrap(made.object["token"] as? String)
        let id = try XCTUnwrap(made.object["id"] as? Int)
        XCTAssertEqual(made.object["url"] as? String, "http://photos.test/s/\(token)")
        XCTAssertEqual(f.request(.GET, "/s/\(token)/photos").status, .ok)
        f.clock.advance(by: 29)
        XCTAssertEqual(f.request(.GET, "/s/\(token)/photos").status, .ok)
        f.clock.advance(by: 1)
        XCTAssertEqual(f.request(.GET, "/s/\(token)/photos").status, .notFound, "expired")
        XCTAssertEqual(f.request(.GET, "/s/\(token)/share").object["detail"] as? String, "This link has expired.")

        let other = try f.share(ShareRequest(target: .folder(f.folders["trip"]!), expiresAt: nil))
        XCTAssertEqual(f.request(.GET, "/s/\(other.token)/photos").status, .ok)
        XCTAssertEqual(f.request(.DELETE, "/shares/\(other.id)", headers: ["Cookie": owner]).status, .noContent)
        XCTAssertEqual(f.request(.GET, "/s/\(other.token)/photos").status, .notFound, "revoked, memory included")
        XCTAssertEqual(f.request(.DELETE, "/shares/\(other.id)", headers: ["Cookie": owner]).status, .notFound)
        XCTAssertEqual(f.request(.GET, "/shares", headers: ["Cookie": owner]).object["shares"].map { ($0 as? [Any])?.count }, 1)
        _ = id
    }

    func testALinkLastsThirtyDaysUnlessToldAndNeverOnlyWhenToldSo() throws {
        let owner = try f.signIn("ana", AccessFixture.ownerPassword)
        let album = f.folders["trip"]!
        let standard = f.post("/shares", json: "{\"folder\":\(album)}", cookie: owner)
        XCTAssertEqual(standard.object["expires"] as? String, ShareRoutes.rfc3339(f.clock.wall + 30 * 86_400))
        let never = f.post("/shares", json: "{\"folder\":\(album),\"expires\":null}", cookie: owner)
        XCTAssertTrue(never.object["expires"] is NSNull)
        XCTAssertEqual(f.post("/shares", json: "{\"folder\":\(album),\"expires\":\"tomorrow\"}", cookie: owner).status, .badRequest)
        XCTAssertEqual(f.post("/shares", json: "{\"folder\":\(album),\"expires\":\"2001-01-01T00:00:00Z\"}", cookie: owner).status, .badRequest)
        XCTAssertEqual(f.post("/shares", json: "{\"folder\":999}", cookie: owner).status, .badRequest)
        XCTAssertEqual(f.post("/shares", json: "{\"folder\":\(album),\"photo\":1}", cookie: owner).status, .badRequest)
        XCTAssertEqual(f.post("/shares", json: "{}", cookie: owner).status, .badRequest)
    }

    func testALinkShowsWhereOnlyWhenItSaysSoWhateverTheServerSays() throws {
        let album = f.folders["trip"]!, a1 = f.photos["a1"]!
        // showLocation is true on this server: a signed-in member sees the position.
        let member = try f.signIn("ben", AccessFixture.memberPassword)
        XCTAssertTrue(f.request(.GET, "/photos/\(a1)", headers: ["Cookie": member]).text.contains("latitude"))
        let quiet = try f.share(ShareRequest(target: .folder(album), expiresAt: nil))
        let telling = try f.share(ShareRequest(target: .folder(album), expiresAt: nil, location: true))
        for target in ["/photos/\(a1)", "/photos", "/photos/events"] {
            XCTAssertFalse(f.request(.GET, "/s/\(quiet.token)\(target)").text.contains("latitude"), target)
        }
        XCTAssertTrue(f.request(.GET, "/s/\(telling.token)/photos/\(a1)").text.contains("latitude"))
        // And on a server that keeps positions to itself, a link that allows it still tells.
        let closed = try AccessFixture { $0.showLocation = false }
        defer { closed.close() }
        let link = try closed.share(ShareRequest(target: .folder(closed.folders["trip"]!), expiresAt: nil, location: true))
        XCTAssertTrue(closed.request(.GET, "/s/\(link.token)/photos/\(closed.photos["a1"]!)").text.contains("latitude"))
    }

    func testAListUnderALinkHoldsOnlyItsPhotosWithPathsUnderIt() throws {
        XCTAssertTrue(f.application.photos.library.waitForIngest(timeoutSeconds: 60), "the manifest lists ready photos")
        let album = try f.share(ShareRequest(target: .folder(f.folders["trip"]!), expiresAt: nil))
        let page = f.request(.GET, "/s/\(album.token)/photos?limit=1")
        let photos = try XCTUnwrap(page.object["photos"] as? [[String: Any]])
        XCTAssertEqual(page.object["total"] as? Int, 2)
        XCTAssertEqual(photos.first?["thumbnail"] as? String,
                       "/s/\(album.token)/photos/\(photos.first!["id"]!)/thumbnail.jpg?v=\(photos.first!["version"]!)")
        XCTAssertTrue((page.object["next"] as? String)?.hasPrefix("/s/\(album.token)/photos?after=") ?? false)
        XCTAssertNil(photos.first?["original"], "no download allowed")
        let summary = f.request(.GET, "/s/\(album.token)/photos/summary")
        XCTAssertEqual(summary.object["total"] as? Int, 2)
        let info = f.request(.GET, "/s/\(album.token)/iiif/3/\(f.photos["a1"]!)/info.json")
        XCTAssertEqual(info.object["id"] as? String, "http://photos.test/s/\(album.token)/iiif/3/\(f.photos["a1"]!)")
        let manifest = f.request(.GET, "/s/\(album.token)/iiif/manifest.json").text
        XCTAssertTrue(manifest.contains("http://photos.test/s/\(album.token)/iiif/3/"), manifest)
        XCTAssertEqual(manifest.components(separatedBy: "\"type\":\"Canvas\"").count - 1, 2)

        let one = try f.share(ShareRequest(target: .photo(f.photos["b1"]!), expiresAt: nil, download: true))
        let single = f.request(.GET, "/s/\(one.token)/photos")
        XCTAssertEqual((single.object["photos"] as? [[String: Any]])?.map { $0["title"] as? String }, ["b1"])
        XCTAssertEqual(f.request(.GET, "/s/\(one.token)/photos/\(f.photos["b1"]!)").object["previous"] as? NSNull, NSNull())
        XCTAssertEqual(f.request(.GET, "/s/\(one.token)/photos/\(f.photos["b1"]!)/original").status, .ok)
        XCTAssertEqual(f.request(.GET, "/s/\(one.token)/photos/summary").object["total"] as? Int, 1)
    }

    func testAnAlbumsLinkMayLetItsHolderAddPhotosAndAPhotosLinkMayNot() throws {
        let owner = try f.signIn("ana", AccessFixture.ownerPassword)
        let made = f.post("/shares", json: #"{"folder":\#(f.folders["trip"]!),"upload":true}"#, cookie: owner)
        XCTAssertEqual(made.status, .created, made.text)
        XCTAssertEqual(made.object["upload"] as? Bool, true)
        let id = try XCTUnwrap(made.object["id"] as? Int)
        XCTAssertEqual(try f.store.share(id: id)?.upload, true, "kept in the database")
        XCTAssertEqual(f.request(.GET, "/s/\(made.object["token"] as! String)/share").object["upload"] as? Bool, true)
        let plain = f.post("/shares", json: #"{"folder":\#(f.folders["trip"]!)}"#, cookie: owner)
        XCTAssertEqual(plain.object["upload"] as? Bool, false, "no uploads unless asked for")
        let photo = f.post("/shares", json: #"{"photo":\#(f.photos["a1"]!),"upload":true}"#, cookie: owner)
        XCTAssertEqual(photo.status, .badRequest)
        XCTAssertTrue(photo.text.contains("folder's link only"), photo.text)
    }

    func testCommentsCarryTheSignedInNameOrTheNameALinkHolderTypes() throws {
        let member = try f.signIn("ben", AccessFixture.memberPassword)
        let a1 = f.photos["a1"]!
        let signed = f.post("/photos/\(a1)/comments", json: #"{"text":"Lovely","author":"Mallory"}"#, cookie: member)
        XCTAssertEqual(signed.status, .created)
        XCTAssertEqual(signed.object["author"] as? String, "ben")
        let link = try f.share(ShareRequest(target: .folder(f.folders["trip"]!), expiresAt: nil))
        let typed = f.post("/s/\(link.token)/photos/\(a1)/comments", json: #"{"text":"Hello from a link","author":"Grandma"}"#)
        XCTAssertEqual(typed.status, .created)
        XCTAssertEqual(typed.object["author"] as? String, "Grandma")
        XCTAssertTrue(typed.headers["Location"]?.hasPrefix("/s/\(link.token)/photos/\(a1)/comments/") ?? false)
        let thread = f.request(.GET, "/s/\(link.token)/photos/\(a1)/comments").text
        XCTAssertTrue(thread.contains("Lovely") && thread.contains("Grandma"))
        // The owner deletes with their session; a member may not.
        let owner = try f.signIn("ana", AccessFixture.ownerPassword)
        let id = try XCTUnwrap(typed.object["id"] as? Int)
        XCTAssertEqual(f.request(.DELETE, "/photos/\(a1)/comments/\(id)", headers: ["Cookie": member]).status, .forbidden)
        XCTAssertEqual(f.request(.DELETE, "/photos/\(a1)/comments/\(id)", headers: ["Cookie": owner]).status, .noContent)
    }

    func testMetricsAnswerThisMachineOnlyOrTheirToken() throws {
        XCTAssertEqual(f.request(.GET, "/metrics", headers: ["Host": "localhost:8080"]).status, .ok)
        XCTAssertEqual(f.request(.GET, "/metrics").status, .forbidden, "naming a host that is not this machine's loopback")
        XCTAssertEqual(f.request(.GET, "/metrics", headers: ["Host": "localhost"], remoteAddress: "192.0.2.1").status, .forbidden)
        XCTAssertEqual(f.request(.GET, "/metrics", headers: ["Host": "localhost", "X-Forwarded-For": "192.0.2.1"]).status, .forbidden,
                       "through a proxy on this machine")
        let tokened = try AccessFixture { $0.metricsToken = "scrape-me-please" }
        defer { tokened.close() }
        XCTAssertEqual(tokened.request(.GET, "/metrics", remoteAddress: "192.0.2.1").status, .unauthorized)
        XCTAssertEqual(tokened.request(.GET, "/metrics", headers: ["Authorization": "Bearer wrong"], remoteAddress: "192.0.2.1").status,
                       .unauthorized)
        XCTAssertEqual(tokened.request(.GET, "/metrics", headers: ["Authorization": "Bearer scrape-me-please"], remoteAddress: "192.0.2.1").status,
                       .ok)
        XCTAssertEqual(tokened.request(.GET, "/metrics").status, .unauthorized, "with a token, loopback needs it too")
    }

    func testASigningInProxyNamesTheUserOnlyFromATrustedAddress() throws {
        let proxied = try AccessFixture {
            $0.trustedProxies = "10.0.0.2"
            $0.trustedAuthHeader = "Remote-User"
        }
        defer { proxied.close() }
        XCTAssertEqual(proxied.request(.GET, "/session", headers: ["Remote-User": "ben"], remoteAddress: "10.0.0.2").object["username"] as? String,
                       "ben")
        XCTAssertEqual(proxied.request(.GET, "/photos", headers: ["Remote-User": "ben"], remoteAddress: "10.0.0.2").status, .ok)
        XCTAssertEqual(proxied.request(.GET, "/shares", headers: ["Remote-User": "ben"], remoteAddress: "10.0.0.2").status, .forbidden)
        XCTAssertEqual(proxied.request(.GET, "/shares", headers: ["Remote-User": "ana"], remoteAddress: "10.0.0.2").status, .ok)
        XCTAssertEqual(proxied.request(.GET, "/photos", headers: ["Remote-User": "ana"], remoteAddress: "10.0.0.9").status, .unauthorized,
                       "from anywhere else the field is nobody's word")
        XCTAssertEqual(proxied.request(.GET, "/photos", headers: ["Remote-User": "nobody"], remoteAddress: "10.0.0.2").status, .unauthorized)
        XCTAssertThrowsError(try Configuration.load(file: nil, environment: ["PHOTOSCROLL_TRUSTED_AUTH_HEADER": "Remote-User"]))
    }

    func testAPublicLibraryIsOpenButItsOwnersWorkIsNot() throws {
        let open = try AccessFixture { $0.access = "auto" }
        defer { open.close() }
        XCTAssertEqual(open.request(.GET, "/photos").status, .ok)
        XCTAssertEqual(open.request(.GET, "/photos").headers["Cache-Control"], "no-cache")
        XCTAssertEqual(open.request(.GET, "/shares").status, .unauthorized)
        XCTAssertEqual(open.request(.GET, "/session").object["access"] as? String, "public")
        XCTAssertEqual(AccessMode.resolve("auto", host: "127.0.0.1"), .public)
        XCTAssertEqual(AccessMode.resolve("auto", host: "::1"), .public)
        XCTAssertEqual(AccessMode.resolve("auto", host: "0.0.0.0"), .private)
        XCTAssertEqual(AccessMode.resolve("auto", host: "192.168.1.4"), .private)
        XCTAssertEqual(AccessMode.resolve("public", host: "0.0.0.0"), .public)
        XCTAssertThrowsError(try Configuration.load(file: nil, environment: ["PHOTOSCROLL_ACCESS": "open"]))
        XCTAssertEqual(try Configuration.load(file: nil, environment: ["PHOTOSCROLL_ACCESS": "private"]).access, "private")
        XCTAssertEqual(try Configuration.load(file: nil, environment: [:], flags: ["access": "public"]).access, "public")
    }
}
