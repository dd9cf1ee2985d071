import Comments
import Foundation
import HTTP
import Synchronization
import XCTest
@testable import App
import TestSupport

/// The comment API over real sockets: validation, limits, deletion, concurrency and live events.
final class CommentLiveTests: XCTestCase {
    private var live: CommentLiveServer!

    override func tearDown() {
        live?.stop()
        live = nil
    }

    private func start(perMinute: Int = 0, adminToken: String = "", heartbeatSeconds: Double = 15) throws {
        live = try CommentLiveServer(perMinute: perMinute, adminToken: adminToken, heartbeatSeconds: heartbeatSeconds)
    }

    func testEveryValidationCaseOverTheWire() throws {
        try start()
        let json: HTTPHeaders = ["Content-Type": "application/json"]
        let invalidUTF8 = Array(#"{"text":"bad "#.utf8) + [0xC3, 0x28, 0xFF] + Array(#""}"#.utf8)
        let cases: [(name: String, photo: Int, headers: HTTPHeaders, body: [UInt8], status: Int, detail: String?)] = [
            ("malformed JSON", 1, json, Array(#"{"text": "unclosed"#.utf8), 400, "not valid JSON"),
            ("text of the wrong type", 1, json, Array(#"{"text": 12}"#.utf8), 400, "text must be a string"),
            ("author of the wrong type", 1, json, Array(#"{"text": "x", "author": false}"#.utf8), 400, "author must be a string"),
            ("no text", 1, json, Array(#"{"author": "Ana"}"#.utf8), 400, "text is required"),
            ("empty text", 1, json, Array(#"{"text": ""}"#.utf8), 400, "text must not be empty"),
            ("whitespace text", 1, json, Array("{\"text\": \" \\n\\t \\r\\n \"}".utf8), 400, "text must not be empty"),
            ("2001 characters", 1, json, Array("{\"text\":\"\(String(repeating: "é", count: 2001))\"}".utf8), 400, "2001 characters"),
            ("author of 81 characters", 1, json, Array("{\"text\":\"x\",\"author\":\"\(String(repeating: "a", count: 81))\"}".utf8), 400, "81 characters"),
            ("invalid UTF-8", 1, json, invalidUTF8, 400, "UTF-8"),
            ("unknown photo", 9, json, Array(#"{"text": "hi"}"#.utf8), 404, nil),
            ("photo id that is no id", 0, json, Array(#"{"text": "hi"}"#.utf8), 404, nil),
            ("text/plain", 1, ["Content-Type": "text/plain"], Array("hi".utf8), 415, nil),
            ("no content type", 1, [:], Array(#"{"text": "hi"}"#.utf8), 415, nil),
            ("16 KiB + 1", 1, json, Array("{\"text\":\"\(String(repeating: "a", count: 16 * 1024 - 11 + 1))\"}".utf8), 413, nil),
        ]
        for c in cases {
            let response = try live.send(.POST, "/photos/\(c.photo)/comments", headers: c.headers, body: c.body)
            XCTAssertEqual(response.status, c.status, "\(c.name): \(response.text)")
            XCTAssertEqual(response.headers["Content-Type"], "application/problem+json", c.name)
            if let detail = c.detail {
                XCTAssertEqual((response.object["detail"] as? String)?.contains(detail), true, "\(c.name): \(response.text)")
            }
        }
        XCTAssertEqual(cases.first { $0.status == 413 }?.body.count, 16 * 1024 + 1)
        XCTAssertEqual(live.service.commentCount(photoID: 1), 0, "nothing was stored")
        let exactlyAtTheLimit = Array("{\"text\":\"\(String(repeating: "a", count: 2000))\"}".utf8)
        XCTAssertEqual(try live.send(.POST, "/photos/1/comments", headers: json, body: exactlyAtTheLimit).status, 201)
    }

    func testControlCharactersAreStrippedAndTheCommentIsStoredAsGiven() throws {
        try start()
        let response = try live.postJSON(2, "{\"text\":\"bell\\u0007 nul\\u0000 esc\\u001b[1m crlf\\r\\nnext\\ttab <b>&amp;</b>\",\"author\":\"  Ana\\r\\n  \"}")
        XCTAssertEqual(response.status, 201, response.text)
        XCTAssertEqual(response.object["text"] as? String, "bell nul esc[1m crlf\nnext\ttab <b>&amp;</b>")
        XCTAssertEqual(response.object["author"] as? String, "Ana")
        let location = try XCTUnwrap(response.headers["Location"])
        let fetched = try live.send(.GET, location)
        XCTAssertEqual(fetched.status, 200)
        XCTAssertEqual(fetched.text, response.text)
        let list = try live.send(.GET, "/photos/2/comments")
        XCTAssertEqual(list.text, "{\"comments\":[\(response.text)]}")
    }

    func testAFormPostRedirectsAndAJSONPreferringOneGets201() throws {
        try start()
        let browser = try live.send(.POST, "/photos/3/comments",
                                    headers: ["Content-Type": "application/x-www-form-urlencoded",
                                              "Accept": "text/html,application/xhtml+xml,*/*;q=0.8"],
                                    body: Array("text=What+about+Pip%3F&author=Ana".utf8))
        XCTAssertEqual(browser.status, 303)
        XCTAssertEqual(browser.headers["Location"], "/#/photos/3")
        let script = try live.send(.POST, "/photos/3/comments",
                                   headers: ["Content-Type": "application/x-www-form-urlencoded", "Accept": "application/json"],
                                   body: Array("text=second".utf8))
        XCTAssertEqual(script.status, 201)
        let list = try live.send(.GET, "/photos/3/comments").object["comments"] as? [[String: Any]]
        XCTAssertEqual(list?.compactMap { $0["text"] as? String }, ["What about Pip?", "second"])
    }

    func testTheRateLimitAnswers429WithRetryAfter() throws {
        try start(perMinute: 2)
        XCTAssertEqual(try live.postJSON(1, #"{"text":"one"}"#).status, 201)
        XCTAssertEqual(try live.postJSON(1, #"{"text":"two"}"#).status, 201)
        let limited = try live.postJSON(1, #"{"text":"three"}"#)
        XCTAssertEqual(limited.status, 429)
        let retryAfter = try XCTUnwrap(limited.headers["Retry-After"].flatMap { Int($0) }, "Retry-After is whole seconds")
        XCTAssertTrue((1...30).contains(retryAfter), "one token every 30 s: \(retryAfter)")
        XCTAssertEqual(live.service.commentCount(photoID: 1), 2)
        XCTAssertEqual(live.metrics.counter("photoscroll_comment_posts_total", help: "").value([("status", "429")]), 1)
    }

    func testDeletionIs403WhenOff() throws {
        try start()
        let id = try XCTUnwrap(try live.postJSON(1, #"{"text":"x"}"#).object["id"] as? Int)
        XCTAssertEqual(try live.send(.DELETE, "/photos/1/comments/\(id)", headers: ["Authorization": "Bearer anything"]).status, 403)
    }

    func testDeletionNeedsTheRightBearerToken() throws {
        try start(adminToken: "correct horse")
        let id = try XCTUnwrap(try live.postJSON(1, #"{"text":"x"}"#).object["id"] as? Int)
        let missing = try live.send(.DELETE, "/photos/1/comments/\(id)")
        XCTAssertEqual(missing.status, 401)
        XCTAssertEqual(missing.headers["WWW-Authenticate"]?.hasPrefix("Bearer"), true)
        XCTAssertEqual(try live.send(.DELETE, "/photos/1/comments/\(id)", headers: ["Authorization": "Bearer correct horsE"]).status, 401)
        XCTAssertEqual(try live.send(.DELETE, "/photos/1/comments/\(id)", headers: ["Authorization": "Bearer correct horse"]).status, 204)
        XCTAssertEqual(try live.send(.GET, "/photos/1/comments/\(id)").status, 404)
        XCTAssertEqual(try live.send(.DELETE, "/photos/1/comments/\(id)", headers: ["Authorization": "Bearer correct horse"]).status, 404)
    }

    func test200ConcurrentPostsFrom20KeepAliveClientsAreAllStoredOnce() throws {
        try start()
        let clients = 20, perClient = 10
        let results = Mutex<[Int: [Int]]>([:])
        let failures = Mutex<[String]>([])
        let port = live.port
        DispatchQueue.concurrentPerform(iterations: clients) { client in
            do {
                let connection = try HTTPClientConnection(port: port, timeoutSeconds: 10)
                defer { connection.close() }
                var ids: [Int] = []
                for n in 0..<perClient {
                    let body = "{\"text\":\"client \(client) comment \(n)\",\"author\":\"c\(client)\"}"
                    try connection.send("POST /photos/4/comments HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                                        + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)")
                    let response = try connection.readResponse()
                    guard response.status == 201, response.headers["Connection"]?.lowercased() != "close",
                          let id = response.object["id"] as? Int else {
                        throw HTTPClientError("status \(response.status): \(response.text)")
                    }
                    ids.append(id)
                }
                results.withLock { $0[client] = ids }
            } catch {
                failures.withLock { $0.append("client \(client): \(error)") }
            }
        }
        XCTAssertEqual(failures.withLock { $0 }, [])
        let byClient = results.withLock { $0 }
        XCTAssertEqual(byClient.count, clients)
        for (client, ids) in byClient {
            XCTAssertEqual(ids, ids.sorted(), "client \(client)'s ids increase in the order it posted")
        }
        let allIDs = byClient.values.flatMap { $0 }
        XCTAssertEqual(Set(allIDs).count, clients * perClient, "every acknowledged post has its own id")

        let stored = try XCTUnwrap(try live.send(.GET, "/photos/4/comments?limit=200").object["comments"] as? [[String: Any]])
        XCTAssertEqual(stored.compactMap { $0["id"] as? Int }, allIDs.sorted(), "stored once each, none lost, listed in id order")
        let texts = stored.compactMap { $0["text"] as? String }
        XCTAssertEqual(Set(texts).count, clients * perClient)
        XCTAssertEqual(live.service.commentCount(photoID: 4), clients * perClient)
        let commits = live.metrics.histogram("photoscroll_comment_commit_batch_size", help: "", buckets: [1, 2, 4, 8, 16, 32, 64])
        XCTAssertGreaterThan(commits.count(), 0)
        XCTAssertLessThanOrEqual(commits.count(), UInt64(clients * perClient), "one commit per post at most; fewer when posts share one")
    }

    /// The comment reaches the open stream as it is stored (how soon is bench/comments.sh's figure).
    func testASecondPageSeesANewCommentOnItsOpenStream() throws {
        try start()
        let watcher = try live.openEvents("/photos/5/comments/events")
        defer { watcher.close() }
        XCTAssertEqual(watcher.head.status, 200)
        XCTAssertEqual(watcher.head.headers["Content-Type"], "text/event-stream")
        XCTAssertEqual(watcher.head.headers["Cache-Control"], "no-cache")
        XCTAssertTrue(watcher.read(timeout: 30) { $0.contains("retry: 2000\n\n") })
        XCTAssertEqual(live.metrics.gauge("photoscroll_comment_streams", help: "").value(), 1)

        let response = try live.postJSON(5, #"{"text":"Looks like a Pip","author":"Ana"}"#)
        let id = try XCTUnwrap(response.object["id"] as? Int)
        let frame = "id: \(id)\nevent: comment\ndata: \(response.text)\n\n"
        XCTAssertTrue(watcher.read(timeout: 30) { $0.contains(frame) }, "got: \(watcher.text)")
    }

    func testReconnectingWithLastEventIDReplaysWhatWasMissed() throws {
        try start(adminToken: "t")
        let first = try XCTUnwrap(try live.postJSON(5, #"{"text":"seen"}"#).object["id"] as? Int)
        let missed = try (0..<3).map { try XCTUnwrap(try live.postJSON(5, "{\"text\":\"missed \($0)\"}").object["id"] as? Int) }
        _ = try live.postJSON(4, #"{"text":"another photo"}"#)

        let byHeader = try live.openEvents("/photos/5/comments/events", headers: ["Last-Event-ID": String(first)])
        defer { byHeader.close() }
        XCTAssertTrue(byHeader.read(timeout: 30) { _ in byHeader.commentEventIDs.count == 3 }, byHeader.text)
        XCTAssertEqual(byHeader.commentEventIDs, missed)

        let byQuery = try live.openEvents("/photos/5/comments/events?lastEventId=\(missed[1])")
        defer { byQuery.close() }
        XCTAssertTrue(byQuery.read(timeout: 30) { _ in byQuery.commentEventIDs == [missed[2]] }, byQuery.text)

        let next = try XCTUnwrap(try live.postJSON(5, #"{"text":"live again"}"#).object["id"] as? Int)
        XCTAssertTrue(byHeader.read(timeout: 30) { _ in byHeader.commentEventIDs == missed + [next] }, byHeader.text)
        XCTAssertEqual(try live.send(.DELETE, "/photos/5/comments/\(next)", headers: ["Authorization": "Bearer t"]).status, 204)
        XCTAssertTrue(byQuery.read(timeout: 30) { $0.hasSuffix("event: delete\ndata: {\"id\":\(next),\"photoId\":5}\n\n") }, byQuery.text)

        // A page that saw everything up to `next` and missed the deletion learns of it on reconnecting.
        let returning = try live.openEvents("/photos/5/comments/events", headers: ["Last-Event-ID": String(next)])
        defer { returning.close() }
        XCTAssertTrue(returning.read(timeout: 30) { $0.contains("event: delete\ndata: {\"id\":\(next),\"photoId\":5}\n\n") }, returning.text)
        XCTAssertEqual(returning.commentEventIDs, [])
    }

    func testStreamsEndWhenTheServiceStopsAndHangUpsAreCounted() throws {
        try start(heartbeatSeconds: 0.1)
        let leaving = try live.openEvents("/photos/1/comments/events")
        let staying = try live.openEvents("/photos/1/comments/events")
        XCTAssertTrue(staying.read(timeout: 30) { $0.contains(": keep-alive\n\n") }, "heartbeats arrive: \(staying.text)")
        XCTAssertEqual(live.metrics.gauge("photoscroll_comment_streams", help: "").value(), 2)
        leaving.close()
        eventually(timeout: 30) { live.service.events.count() <= 1 }
        XCTAssertEqual(live.service.events.count(), 1, "a client that hung up is forgotten")
        live.service.stop()
        XCTAssertTrue(staying.read(timeout: 30) { _ in staying.ended })
        XCTAssertEqual(live.metrics.gauge("photoscroll_comment_streams", help: "").value(), 0)
        XCTAssertEqual(try live.send(.GET, "/photos/1/comments/events").status, 200, "a late stream is opened and closed at once")
    }
}
