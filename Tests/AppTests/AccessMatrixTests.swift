@testable import Access
import Foundation
@testable import App
@testable import HTTP
import XCTest

/// Every route the router holds, walked by every kind of visitor: the rule's decision and the
/// answer's status, and that no refused answer (and no answer under a link) carries anything of
/// a photo it should not.
///
/// The routes come from the router itself: a route added without a rule stops the router at
/// start, and one added with a rule but without a line in `expected` below fails here.
final class AccessMatrixTests: XCTestCase {
    /// Each route's rule, and what its handler answers a visitor the rule lets in, given the
    /// parameters `target(for:)` fills in.
    static let expected: [String: (rule: Rule.Kind, admitted: Int)] = [
        "GET /healthz": (.open, 200),
        "GET /readyz": (.open, 0),
        "GET /metrics": (.metrics, 200),
        "GET /": (.open, 200),
        "GET /*path": (.open, 200),
        "GET /setup": (.open, 200),
        "GET /s/:token": (.open, 200),
        "POST /session": (.open, 415),
        "GET /session": (.open, 0),
        "DELETE /session": (.open, 204),
        "POST /session/password": (.signedIn, 415),
        "POST /setup": (.open, 415),
        "POST /setup/check": (.open, 415),
        "POST /shares": (.owner, 415),
        "GET /shares": (.owner, 200),
        "DELETE /shares/:id": (.owner, 404),
        "GET /photos": (.library, 200),
        "GET /photos/summary": (.library, 200),
        "GET /search": (.library, 200),
        "GET /search/suggest": (.library, 200),
        "GET /places": (.library, 200),
        "GET /memories": (.library, 200),
        "GET /photos/events": (.library, 200),
        "GET /photos/:id": (.library, 200),
        "GET /photos/:id/thumbnail.jpg": (.library, 200),
        "GET /photos/:id/tiles/:z/:x/:y.jpg": (.library, 200),
        "GET /photos/:id/original": (.library, 200),
        "GET /photos/:id/image.dzi": (.library, 200),
        "GET /photos/:id/image_files/:level/:tile.jpg": (.library, 200),
        "GET /photos/:id/manifest.json": (.library, 200),
        "GET /albums": (.library, 200),
        "GET /albums/:id": (.library, 200),
        "GET /albums/:id/summary": (.library, 200),
        "GET /albums/:id/manifest.json": (.library, 200),
        "OPTIONS /albums/:id/manifest.json": (.open, 204),
        "GET /folders": (.library, 200),
        "GET /folders/:id": (.library, 200),
        "GET /folders/:id/summary": (.library, 200),
        "GET /folders/:id/manifest.json": (.library, 200),
        "OPTIONS /folders/:id/manifest.json": (.open, 204),
        "GET /iiif/manifest.json": (.library, 200),
        "GET /iiif/3/:id": (.library, 303),
        "GET /iiif/3/:id/info.json": (.library, 200),
        "GET /iiif/3/:id/:region/:size/:rotation/:file": (.library, 200),
        "GET /photos/:id/comments": (.library, 200),
        "POST /photos/:id/comments": (.library, 415),
        "GET /photos/:id/comments/events": (.library, 200),
        "GET /photos/:id/comments/:cid": (.library, 404),
        "DELETE /photos/:id/comments/:cid": (.moderation, 404),
        "OPTIONS /photos/:id/image_files/:level/:tile.jpg": (.open, 204),
        "OPTIONS /photos/:id/image.dzi": (.open, 204),
        "OPTIONS /iiif/3/:id/:region/:size/:rotation/:file": (.open, 204),
        "OPTIONS /iiif/3/:id/info.json": (.open, 204),
        "OPTIONS /iiif/3/:id": (.open, 204),
        "OPTIONS /iiif/manifest.json": (.open, 204),
        "OPTIONS /photos/:id/manifest.json": (.open, 204),
        "GET /s/:token/share": (.share(.door, photo: false), 200),
        "POST /s/:token/unlock": (.share(.door, photo: false), 415),
        "GET /s/:token/photos": (.share(.view, photo: false), 200),
        "GET /s/:token/photos/summary": (.share(.view, photo: false), 200),
        "GET /s/:token/search": (.share(.view, photo: false), 200),
        "GET /s/:token/search/suggest": (.share(.view, photo: false), 200),
        "GET /s/:token/places": (.share(.view, photo: false), 200),
        "GET /s/:token/memories": (.share(.view, photo: false), 200),
        "GET /s/:token/photos/events": (.share(.view, photo: false), 200),
        "GET /s/:token/photos/:id": (.share(.view, photo: true), 200),
        "GET /s/:token/photos/:id/thumbnail.jpg": (.share(.view, photo: true), 200),
        "GET /s/:token/photos/:id/tiles/:z/:x/:y.jpg": (.share(.view, photo: true), 200),
        "GET /s/:token/photos/:id/original": (.share(.download, photo: true), 200),
        "GET /s/:token/photos/:id/image.dzi": (.share(.view, photo: true), 200),
        "GET /s/:token/photos/:id/image_files/:level/:tile.jpg": (.share(.view, photo: true), 200),
        "GET /s/:token/photos/:id/manifest.json": (.share(.view, photo: true), 200),
        "GET /s/:token/iiif/manifest.json": (.share(.view, photo: false), 200),
        "GET /s/:token/iiif/3/:id": (.share(.view, photo: true), 303),
        "GET /s/:token/iiif/3/:id/info.json": (.share(.view, photo: true), 200),
        "GET /s/:token/iiif/3/:id/:region/:size/:rotation/:file": (.share(.view, photo: true), 200),
        "OPTIONS /s/:token/iiif/3/:id/:region/:size/:rotation/:file": (.open, 204),
        "OPTIONS /s/:token/iiif/3/:id/info.json": (.open, 204),
        "OPTIONS /s/:token/iiif/3/:id": (.open, 204),
        "OPTIONS /s/:token/iiif/manifest.json": (.open, 204),
        "OPTIONS /s/:token/photos/:id/manifest.json": (.open, 204),
        "OPTIONS /s/:token/photos/:id/image_files/:level/:tile.jpg": (.open, 204),
        "OPTIONS /s/:token/photos/:id/image.dzi": (.open, 204),
        "GET /s/:token/photos/:id/comments": (.share(.comments, photo: true), 200),
        "POST /s/:token/photos/:id/comments": (.share(.comments, photo: true), 415),
        "GET /s/:token/photos/:id/comments/events": (.share(.comments, photo: true), 200),
        "GET /s/:token/photos/:id/comments/:cid": (.share(.comments, photo: true), 404),
        // Adding and changing photos (what the handlers answer an empty request is theirs to say).
        "OPTIONS /uploads": (.open, 204),
        "OPTIONS /uploads/*rest": (.open, 204),
        "POST /uploads": (.manage, 0),
        "POST /uploads/*rest": (.manage, 0),
        "GET /uploads/:id": (.manage, 0),
        "PATCH /uploads/:id": (.manage, 0),
        "DELETE /uploads/:id": (.manage, 0),
        "POST /uploads/form": (.manage, 0),
        "GET /favourites": (.manage, 200),
        "PUT /favourites/:id": (.manage, 0),
        "DELETE /favourites/:id": (.manage, 0),
        "POST /favourites": (.manage, 0),
        "POST /albums": (.manage, 0),
        "PATCH /albums/:id": (.manage, 0),
        "DELETE /albums/:id": (.manage, 0),
        "POST /albums/:id/photos": (.manage, 0),
        "DELETE /albums/:id/photos": (.manage, 0),
        "POST /folders": (.manage, 0),
        "PATCH /folders/:id": (.manage, 0),
        "DELETE /folders/:id": (.manage, 0),
        "POST /photos/move": (.manage, 0),
        "POST /photos/copy": (.manage, 0),
        "POST /photos/trash": (.manage, 0),
        "GET /trash": (.manage, 200),
        "POST /trash/restore": (.manage, 0),
        "DELETE /trash": (.manage, 0),
        "DELETE /trash/:item": (.manage, 0),
        // Adding photos through a share link that allows it, into its folder.
        "OPTIONS /s/:token/uploads": (.open, 204),
        "OPTIONS /s/:token/uploads/*rest": (.open, 204),
        "POST /s/:token/uploads": (.share(.upload, photo: false), 412),
        "POST /s/:token/uploads/*rest": (.share(.upload, photo: false), 404),
        "GET /s/:token/uploads/:id": (.share(.upload, photo: false), 404),
        "PATCH /s/:token/uploads/:id": (.share(.upload, photo: false), 412),
        "DELETE /s/:token/uploads/:id": (.share(.upload, photo: false), 412),
        "POST /s/:token/uploads/form": (.share(.upload, photo: false), 415),
    ]

    /// Who asks: a cookie, and the token it uses under `/s/`.
    struct Visitor: CustomStringConvertible {
        enum Kind { case anonymous, holder, expired, revoked, locked, unlocked, member, owner }
        let kind: Kind
        let description: String
        let cookie: String?
        let token: String
        /// The link behind `token` (nil for a token no link has).
        let share: Share?
        /// Photos the link shows, by title.
        let inside: [String]
    }

    nonisolated(unsafe) static var fixture: AccessFixture!
    nonisolated(unsafe) static var visitors: [Visitor] = []

    override class func setUp() {
        super.setUp()
        do {
            let f = try AccessFixture(ready: true)
            fixture = f
            let album = f.folders["trip"]!, b1 = f.photos["b1"]!
            let soon = f.clock.wall + 100
            let holderA = try f.share(ShareRequest(target: .folder(album), expiresAt: nil))
            let holderC = try f.share(ShareRequest(target: .album(f.albums["picks"]!), expiresAt: nil, download: true))
            let holderP = try f.share(ShareRequest(target: .photo(b1), expiresAt: f.clock.wall + 86_400, download: true, comments: false))
            let uploader = try f.share(ShareRequest(target: .folder(album), expiresAt: nil, upload: true))
            // These would let photos be added, live and unlocked.
            let expired = try f.share(ShareRequest(target: .folder(album), expiresAt: soon, upload: true))
            let revoked = try f.share(ShareRequest(target: .folder(album), expiresAt: nil, upload: true))
            let locked = try f.share(ShareRequest(target: .folder(album), expiresAt: nil, password: "open sesame", download: true, upload: true))
            // Seen once while live, so any memory of them is tested too.
            for share in [expired, revoked] { XCTAssertEqual(f.request(.GET, "/s/\(share.token)/photos").status, .ok) }
            try f.store.revokeShare(id: revoked.id)
            let unlock = f.post("/s/\(locked.token)/unlock", json: "{\"password\":\"open sesame\"}")
            XCTAssertEqual(unlock.status, .noContent)
            let unlocked = AccessFixture.cookie(unlock)
            let member = try f.signIn("ben", AccessFixture.memberPassword)
            let owner = try f.signIn("ana", AccessFixture.ownerPassword)
            f.clock.advance(by: 101)
            let nobody = try AccessToken.make()
            visitors = [
                Visitor(kind: .anonymous, description: "anonymous", cookie: nil, token: nobody, share: nil, inside: []),
                Visitor(kind: .holder, description: "holder of folder A", cookie: nil, token: holderA.token, share: holderA, inside: ["a1", "a2"]),
                Visitor(kind: .holder, description: "holder of album C (a2 and b1, from two folders)", cookie: nil, token: holderC.token,
                        share: holderC, inside: ["a2", "b1"]),
                Visitor(kind: .holder, description: "holder of folder A's link that adds photos", cookie: nil, token: uploader.token,
                        share: uploader, inside: ["a1", "a2"]),
                Visitor(kind: .holder, description: "holder of photo P", cookie: nil, token: holderP.token, share: holderP, inside: ["b1"]),
                Visitor(kind: .expired, description: "expired link", cookie: nil, token: expired.token, share: expired, inside: []),
                Visitor(kind: .revoked, description: "revoked link", cookie: nil, token: revoked.token, share: nil, inside: []),
                Visitor(kind: .locked, description: "password link before the password", cookie: nil, token: locked.token, share: locked,
                        inside: ["a1", "a2"]),
                Visitor(kind: .unlocked, description: "password link after the password", cookie: unlocked, token: locked.token,
                        share: locked, inside: ["a1", "a2"]),
                Visitor(kind: .member, description: "member", cookie: member, token: holderA.token, share: holderA, inside: ["a1", "a2"]),
                Visitor(kind: .owner, description: "owner", cookie: owner, token: holderA.token, share: holderA, inside: ["a1", "a2"]),
            ]
        } catch {
            XCTFail("fixture: \(error)")
        }
    }

    override class func tearDown() {
        fixture?.close()
        fixture = nil
        super.tearDown()
    }

    var f: AccessFixture { Self.fixture }

    func testEveryRouteOfTheRouterHasTheRuleThisTableGivesIt() {
        var seen = Set<String>()
        for route in f.router.routes {
            let name = "\(route.method) \(route.pattern)"
            seen.insert(name)
            guard let rule = route.access as? Rule else {
                XCTFail("\(name) has no rule of the application's")
                continue
            }
            guard let expected = Self.expected[name] else {
                XCTFail("\(name) is a route this test does not know: add it to AccessMatrixTests.expected with its rule")
                continue
            }
            XCTAssertEqual(rule.kind, expected.rule, name)
        }
        XCTAssertEqual(Set(Self.expected.keys).subtracting(seen), [], "routes the table names but the router lacks")
        XCTAssertTrue(f.router.requiresAccessRules)
    }

    func testEveryRouteForEveryVisitor() throws {
        var checked = 0
        for route in f.router.routes {
            guard let rule = route.access as? Rule else { continue }
            let shared = route.pattern.hasPrefix("/s/:token/")
            for visitor in Self.visitors {
                let choices: [String] = shared && route.pattern.contains(":id") ? ["a1", "b1", "r1"] : ["a1"]
                for photo in choices {
                    let target = target(for: route.pattern, visitor: visitor, photo: photo,
                                        readOnly: route.method == .GET || route.method == .HEAD || route.method == .OPTIONS)
                    var headers: HTTPHeaders = [:]
                    if var cookie = visitor.cookie {
                        // Signing out ends the session: a session of its own for that.
                        if route.method == .DELETE && route.pattern == "/session" {
                            cookie = visitor.kind == .owner ? try f.signIn("ana", AccessFixture.ownerPassword)
                                : visitor.kind == .member ? try f.signIn("ben", AccessFixture.memberPassword) : cookie
                        }
                        headers.add("Cookie", cookie)
                    }
                    let request = HTTPRequest(method: route.method, target: target, headers: headers + [("Host", "photos.test")])
                    let want = expectation(rule.kind, visitor, photo: photo)
                    let decided = decision(rule, request, route: route)
                    let context = "\(route.method) \(target) as \(visitor)"
                    XCTAssertEqual(decided, want, context)
                    let answer = f.request(route.method, target, headers: headers)
                    if let refused = want {
                        XCTAssertEqual(answer.status.rawValue, refused, context)
                        assertNothingOfAPhoto(answer, context)
                    } else {
                        var admitted = Self.expected["\(route.method) \(route.pattern)"]!.admitted
                        if route.pattern == "/session" && route.method == .GET { admitted = visitor.kind == .member || visitor.kind == .owner ? 200 : 401 }
                        if admitted != 0 { XCTAssertEqual(answer.status.rawValue, admitted, context + ": " + answer.text.prefix(200)) }
                        if shared { assertOnlyTheShare(answer, visitor, context) }
                    }
                    checked += 1
                }
            }
        }
        XCTAssertGreaterThan(checked, 700)
    }

    /// The concrete path a visitor asks for: `photo` for `:id` (a photo of folder A for the library's routes).
    func target(for pattern: String, visitor: Visitor, photo: String, readOnly: Bool = true) -> String {
        var parts: [String] = []
        for segment in pattern.split(separator: "/", omittingEmptySubsequences: false) {
            switch segment {
            case ":token": parts.append(visitor.token)
            case ":id":
                if pattern.hasPrefix("/shares/") || pattern.hasPrefix("/uploads/") { parts.append("999999") }
                // Changes go to an album or folder that does not exist: the walk must not change the fixture.
                else if pattern.hasPrefix("/folders/") { parts.append(readOnly ? String(f.folders["trip"]!) : "999999") }
                else if pattern.hasPrefix("/albums/") { parts.append(readOnly ? String(f.albums["picks"]!) : "999999") }
                else { parts.append(String(f.photos[photo]!)) }
            case ":cid", ":item": parts.append("999")
            case ":z", ":x": parts.append("0")
            case ":y.jpg": parts.append("0.jpg")
            case ":level": parts.append("10")
            case ":tile.jpg": parts.append("0_0.jpg")
            case ":region": parts.append("full")
            case ":size": parts.append("max")
            case ":rotation": parts.append("0")
            case ":file": parts.append("default.jpg")
            case "*path": parts.append("index.html")
            default: parts.append(String(segment))
            }
        }
        return parts.joined(separator: "/")
    }

    /// nil for "let in", else the status of the refusal.
    func expectation(_ kind: Rule.Kind, _ visitor: Visitor, photo: String) -> Int? {
        let signedIn = visitor.kind == .member || visitor.kind == .owner
        switch kind {
        case .open: return nil
        // The fixture's requests name photos.test: not this machine's loopback name (ThisMachineTests has both).
        case .metrics: return 403
        case .library, .signedIn: return signedIn ? nil : 401
        // In-process requests come from loopback, but this library is private.
        case .manage: return signedIn ? nil : 401
        case .owner, .moderation: return visitor.kind == .owner ? nil : signedIn ? 403 : 401
        case .share(let need, let names):
            guard let share = visitor.share, visitor.kind != .expired else { return 404 }
            switch need {
            case .comments where !share.comments: return 404
            case .download where !share.download: return 404
            case .upload where !share.upload: return 404
            default: break
            }
            if names && !visitor.inside.contains(photo) { return 404 }
            if need != .door && visitor.kind == .locked { return 401 }
            return nil
        }
    }

    /// What the route's rule decides, a decision that needs the database included.
    func decision(_ rule: Rule, _ request: HTTPRequest, route: Route) -> Int? {
        var request = request
        request.parameters = { if case .found(_, let p) = f.router.match(route.method, path: request.path) { return p }; return [:] }()
        switch rule.admit(request) {
        case .granted: return nil
        case .refused(let answer): return answer.status.rawValue
        case .deferred(let check): return check()?.status.rawValue
        }
    }

    /// A refusal names no photo, holds no image byte and no position.
    func assertNothingOfAPhoto(_ answer: TestResponse, _ context: String) {
        let text = answer.text
        let titles = ["a1", "a2", "b1", "r1", "trip", "home", "picks"].map { "\"title\":\"\($0)\"" }
        for word in ["PIXELS", "latitude", "a1.jpg", "a2.jpg", "b1.jpg", "r1.jpg", "\"photos\":", "\"albums\":", "\"album\":{",
                     "\"folders\":", "\"folder\":{"] + titles {
            XCTAssertFalse(text.contains(word), "\(context) leaks \(word): \(text.prefix(200))")
        }
    }

    /// An answer under a link names only the link's photos, and no position unless the link allows it.
    func assertOnlyTheShare(_ answer: TestResponse, _ visitor: Visitor, _ context: String) {
        let text = answer.text
        for title in ["a1", "a2", "b1", "r1"] where !visitor.inside.contains(title) {
            XCTAssertFalse(text.contains("\"title\":\"\(title)\"") || text.contains("of \(title).jpg"), "\(context) names \(title): \(text.prefix(300))")
        }
        if visitor.share?.location != true { XCTAssertFalse(text.contains("latitude"), "\(context) says where: \(text.prefix(300))") }
        // Every path in a link's answer stays under the link.
        for path in ["\"/photos/", "\"/iiif/", "http://photos.test/photos", "http://photos.test/iiif"] {
            XCTAssertFalse(text.contains(path), "\(context) points outside the link (\(path)): \(text.prefix(300))")
        }
    }
}

extension HTTPHeaders {
    static func + (lhs: HTTPHeaders, rhs: [(String, String)]) -> HTTPHeaders {
        var headers = lhs
        for (name, value) in rhs { headers.add(name, value) }
        return headers
    }
}
