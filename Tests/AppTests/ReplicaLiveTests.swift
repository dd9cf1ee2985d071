import Foundation
import HTTP
import SQL
import SQLTesting
import Synchronization
import TestSupport
import XCTest

/// Two replicas on one data folder and one PostgreSQL database, behind nginx: comments cross
/// between them live, counts agree, a killed replica loses no acknowledged comment, and a
/// database that goes away for a while costs 503s, never data.
final class ReplicaLiveTests: XCTestCase {
    private static let json: HTTPHeaders = ["Content-Type": "application/json"]

    private static func post(_ server: ServerProcess, photo: Int, _ text: String) throws -> HTTPClientResponse {
        try server.request("/photos/\(photo)/comments", method: .POST, headers: Self.json, body: Array("{\"text\":\"\(text)\"}".utf8))
    }

    private func commentCount(_ server: ServerProcess, photo: Int) throws -> Int? {
        try server.request("/photos/\(photo)").object["commentCount"] as? Int
    }

    /// Every comment stored on the photo, read a page at a time from `server`: id → text.
    private func stored(on server: ServerProcess, photo: Int) throws -> [Int: String] {
        var stored: [Int: String] = [:]
        var cursor = 0
        while true {
            let page = try server.request("/photos/\(photo)/comments?limit=200&after=\(cursor)")
            XCTAssertEqual(page.status, 200, page.text)
            let comments = page.object["comments"] as? [[String: Any]] ?? []
            for comment in comments {
                if let id = comment["id"] as? Int, let text = comment["text"] as? String { stored[id] = text }
            }
            guard let last = comments.last?["id"] as? Int else { return stored }
            cursor = last
        }
    }

    private func waitForPhotos(_ servers: [ServerProcess], count: Int, _ cluster: ReplicaCluster) throws {
        for server in servers {
            let listed = try eventually(timeout: 30) {
                ((try? server.request("/photos"))?.object["photos"] as? [Any])?.count == count
            }
            XCTAssertTrue(listed, "\(server.name) lists \(count) photos\n\(cluster.logs)")
        }
    }

    /// The status of every listed photo on `server`, in id order.
    private func statuses(_ server: ServerProcess) -> [String] {
        let photos = ((try? server.request("/photos?limit=500"))?.object["photos"] as? [[String: Any]]) ?? []
        return photos.map { $0["status"] as? String ?? "?" }
    }

    private func built(_ server: ServerProcess) -> Int {
        Int((try? server.metric("photoscroll_pyramids_built_total")) ?? nil ?? 0)
    }

    func testACommentPostedOnOneReplicaIsLiveAndReadOnTheOtherAndCountsAgree() throws {
        let cluster = try ReplicaCluster(makePhotos: ReplicaCluster.smallPhotos(6))
        defer { cluster.tearDown() }
        try cluster.start(together: true)
        try waitForPhotos(cluster.replicas, count: 6, cluster)
        let balancer = try XCTUnwrap(cluster.balancer)

        // Both started at once on one catalog: one id per file, every pyramid built by one of
        // them, and each replica serves the other's pyramids as ready.
        for server in cluster.replicas {
            XCTAssertTrue(eventually(timeout: 30) { self.statuses(server) == Array(repeating: "ready", count: 6) },
                          "\(server.name): \(statuses(server))\n\(cluster.logs)")
        }
        let ids = cluster.replicas.map { server in
            (((try? server.request("/photos"))?.object["photos"] as? [[String: Any]]) ?? []).compactMap { $0["id"] as? Int }
        }
        XCTAssertEqual(ids[0], ids[1])
        XCTAssertEqual(built(cluster.a) + built(cluster.b), 6,
                       "each pyramid built exactly once across the replicas: A \(built(cluster.a)), B \(built(cluster.b))\n\(cluster.logs)")

        let onB = try openEventStream(port: cluster.b.port, "/photos/1/comments/events")
        defer { onB.close() }
        let throughBalancer = try openEventStream(port: balancer.port, "/photos/1/comments/events")
        defer { throughBalancer.close() }
        XCTAssertEqual(onB.head.status, 200)
        XCTAssertEqual(throughBalancer.head.status, 200)
        XCTAssertTrue(onB.read(timeout: 30) { $0.contains("retry:") })
        XCTAssertTrue(throughBalancer.read(timeout: 30) { $0.contains("retry:") }, "nginx passes the stream on unbuffered")

        let started = Date()
        let posted = try Self.post(cluster.a, photo: 1, "posted on A")
        XCTAssertEqual(posted.status, 201, posted.text)
        let id = try XCTUnwrap(posted.object["id"] as? Int)
        XCTAssertTrue(onB.read(timeout: 30) { $0.contains("id: \(id)\n") }, "B's stream hears A's comment: \(onB.text)")
        let latency = Date().timeIntervalSince(started)
        XCTAssertTrue(throughBalancer.read(timeout: 30) { $0.contains("id: \(id)\n") }, throughBalancer.text)
        print("a comment posted on A reached a stream on B \(Int(latency * 1000)) ms after the POST was sent")

        XCTAssertEqual(try stored(on: cluster.b, photo: 1), [id: "posted on A"], "B reads what A stored")
        XCTAssertEqual(try commentCount(cluster.b, photo: 1), 1, "B's count includes A's comment")
        XCTAssertEqual(try commentCount(cluster.a, photo: 1), 1)

        // Posts through the balancer land on either replica; both agree on every count after each.
        var posted1 = [id]
        for i in 0..<6 {
            let photo = i % 2 + 1
            let response = try balancer.request("/photos/\(photo)/comments", method: .POST, headers: Self.json,
                                                body: Array("{\"text\":\"through nginx \(i)\"}".utf8))
            XCTAssertEqual(response.status, 201, response.text)
            if photo == 1 { posted1.append(try XCTUnwrap(response.object["id"] as? Int)) }
        }
        XCTAssertTrue(onB.read(timeout: 30) { text in posted1.allSatisfy { text.contains("id: \($0)\n") } }, onB.text)
        XCTAssertEqual(onB.commentEventIDs, posted1, "each comment once, in id order")
        for server in cluster.replicas {
            XCTAssertTrue(try eventually(timeout: 30) { try commentCount(server, photo: 1) == 4 && commentCount(server, photo: 2) == 3 },
                          "\(server.name): \((try? commentCount(server, photo: 1)) ?? nil ?? -1), \((try? commentCount(server, photo: 2)) ?? nil ?? -1)")
        }
    }

    func testSIGKILLOfAReplicaDuringEightPostersAndAPyramidBuildLosesNoAcknowledgedCommentAndTheOtherFinishesTheBuild() throws {
        let cluster = try ReplicaCluster(makePhotos: ReplicaCluster.smallPhotos(1))
        defer { cluster.tearDown() }
        try cluster.start()
        try waitForPhotos(cluster.replicas, count: 1, cluster)
        let balancer = try XCTUnwrap(cluster.balancer)

        let acknowledged = Mutex<[Int: String]>([:])
        let afterTheKill = Atomic(0)
        let killed = Atomic(false)
        let stop = Atomic(false)
        // However the test leaves (a failed `try` included), the posters stop with it.
        defer { stop.store(true, ordering: .relaxed) }
        let posters = DispatchGroup()
        for poster in 0..<8 {
            DispatchQueue.global().async(group: posters) {
                var n = 0
                while !stop.load(ordering: .relaxed) {
                    let text = "poster \(poster) comment \(n)"
                    n += 1
                    // One connection per post, through nginx, which spreads them over both replicas.
                    guard let response = try? balancer.request("/photos/1/comments", method: .POST, headers: Self.json,
                                                               body: Array("{\"text\":\"\(text)\"}".utf8), timeout: 5) else { continue }
                    guard response.status == 201, let id = response.object["id"] as? Int else { continue }
                    acknowledged.withLock { $0[id] = text }
                    if killed.load(ordering: .relaxed) { afterTheKill.add(1, ordering: .relaxed) }
                }
            }
        }
        XCTAssertTrue(eventually(timeout: 30) { acknowledged.withLock { $0.count } >= 100 }, cluster.logs)

        // A large photo arrives: one replica claims its build, the other leaves it (and counts so).
        let leftBefore = cluster.replicas.map { ((try? $0.metric("photoscroll_pyramid_builds_elsewhere_total")) ?? nil) ?? 0 }
        try ReplicaCluster.makePhoto(at: cluster.photosDirectory.appendingPathComponent("large.jpg").path, width: 12000, height: 8000)
        var holderIndex: Int?
        let left = { (i: Int) in ((try? cluster.replicas[i].metric("photoscroll_pyramid_builds_elsewhere_total")) ?? nil ?? 0) - leftBefore[i] }
        XCTAssertTrue(eventually(timeout: 30) {
            for i in 0..<2 where left(i) > 0 && self.statuses(cluster.replicas[1 - i]) == ["ready", "processing"] {
                holderIndex = 1 - i
                return true
            }
            return false
        }, "one replica leaves the build to the other, which is building: left \(left(0)), \(left(1)); "
            + "statuses \(statuses(cluster.a)), \(statuses(cluster.b))\n\(cluster.logs)")
        let holder = cluster.replicas[try XCTUnwrap(holderIndex)]
        let other = cluster.replicas[1 - holderIndex!]
        let onHolder = try holder.metric(#"photoscroll_comment_posts_total{status="201"}"#) ?? 0
        XCTAssertGreaterThan(onHolder, 0, "the killed replica acknowledged comments of its own")
        let builtBefore = built(other)
        holder.stop(signal: SIGKILL)
        killed.store(true, ordering: .relaxed)
        XCTAssertEqual(holder.process.terminationReason, .uncaughtSignal)
        XCTAssertTrue(eventually(timeout: 30) { afterTheKill.load(ordering: .relaxed) >= 50 }, "the other takes every post after the kill\n\(cluster.logs)")
        stop.store(true, ordering: .relaxed)
        XCTAssertEqual(posters.wait(timeout: .now() + 30), .success)

        let acked = acknowledged.withLock { $0 }
        let stored = try stored(on: other, photo: 1)
        let lost = acked.filter { stored[$0.key] != $0.value }
        XCTAssertEqual(lost.count, 0, "acknowledged but lost or changed: \(lost.keys.sorted().prefix(10))")
        XCTAssertLessThanOrEqual(stored.count - acked.count, 8, "at most one unanswered post per poster was in flight at the kill")
        XCTAssertEqual(try commentCount(other, photo: 1), stored.count)

        // The killed replica's claim went with its session: the other builds the pyramid, once.
        XCTAssertTrue(eventually(timeout: 60) { self.statuses(other) == ["ready", "ready"] },
                      "\(other.name) finishes the build: \(statuses(other))\n\(cluster.logs)")
        XCTAssertEqual(built(other) - builtBefore, 1)
    }

    func testPostgreSQLStoppedForFiveSecondsMeans503sThenRecoveryWithNothingLost() throws {
        let cluster = try ReplicaCluster(makePhotos: ReplicaCluster.smallPhotos(1))
        defer { cluster.tearDown() }
        try cluster.start()
        try waitForPhotos(cluster.replicas, count: 1, cluster)
        for server in cluster.replicas {
            XCTAssertTrue(try eventually { try server.request("/readyz").status == 200 }, server.logTail)
        }
        let tile = "/photos/1/tiles/0/0/0.jpg"
        XCTAssertEqual(try cluster.a.request(tile).status, 200)
        let onB = try openEventStream(port: cluster.b.port, "/photos/1/comments/events")
        defer { onB.close() }
        XCTAssertTrue(onB.read(timeout: 30) { $0.contains("retry:") })

        // One poster per replica, all along.
        let acknowledged = Mutex<[Int: String]>([:])
        let refused = Mutex<[Int: Int]>([:])
        let stop = Atomic(false)
        // However the test leaves (a failed `try` included), the posters stop with it.
        defer { stop.store(true, ordering: .relaxed) }
        let posters = DispatchGroup()
        for (index, server) in cluster.replicas.enumerated() {
            DispatchQueue.global().async(group: posters) {
                var n = 0
                while !stop.load(ordering: .relaxed) {
                    let text = "replica \(index) comment \(n)"
                    n += 1
                    // Posts are 20 ms apart (a wait for the stop, so that a poster ends with it): a
                    // refusal comes back at once, and unpaced posters would take both cores.
                    guard let response = try? Self.post(server, photo: 1, text) else {
                        eventually(timeout: 0.02) { stop.load(ordering: .relaxed) }
                        continue
                    }
                    if response.status == 201, let id = response.object["id"] as? Int {
                        acknowledged.withLock { $0[id] = text }
                    } else {
                        XCTAssertEqual(response.status, 503, response.text)
                        XCTAssertNotNil(response.headers["Retry-After"], "a 503 says when to try again")
                        refused.withLock { $0[response.status, default: 0] += 1 }
                    }
                    eventually(timeout: 0.02) { stop.load(ordering: .relaxed) }
                }
            }
        }
        XCTAssertTrue(eventually { acknowledged.withLock { $0.count } >= 10 })

        try cluster.postgres.stopServer()
        let stoppedAt = Date()
        for server in cluster.replicas {
            XCTAssertTrue(try eventually(timeout: 30) { try server.request("/readyz").status == 503 }, "\(server.name) is not ready without its database")
        }
        XCTAssertTrue(eventually(timeout: 30) { refused.withLock { $0[503] ?? 0 } > 0 }, "posts are refused while the database is away")
        let unavailable = try Self.post(cluster.a, photo: 1, "while the database is away")
        XCTAssertEqual(unavailable.status, 503, unavailable.text)
        XCTAssertEqual(unavailable.headers["Content-Type"], "application/problem+json")
        XCTAssertTrue(unavailable.text.contains("database"), unavailable.text)
        XCTAssertFalse(unavailable.text.contains("127.0.0.1"), "no server address in the answer: \(unavailable.text)")
        let readyz = try cluster.b.request("/readyz")
        XCTAssertTrue(readyz.text.contains("database"), readyz.text)
        XCTAssertEqual(try cluster.a.request(tile).status, 200, "a cached tile is still served")
        XCTAssertEqual(try cluster.b.request(tile).status, 200, "a tile from disk is still served")
        XCTAssertEqual(try cluster.b.request("/").status, 200, "the page is still served")
        XCTAssertEqual(try cluster.b.request("/photos/1").status, 200, "the photo, with its last known count")
        XCTAssertEqual(try cluster.b.request("/healthz").status, 200, "alive, so nobody restarts it")

        // The outage lasts 5 s in all, the replicas up throughout: what must not happen (one ending
        // for want of its database) is looked for until then.
        let away = stoppedAt.addingTimeInterval(5).timeIntervalSinceNow
        XCTAssertFalse(eventually(timeout: max(0, away)) { cluster.replicas.contains { !$0.isRunning } },
                       "a replica ended while the database was away\n\(cluster.logs)")
        try cluster.postgres.startServer()
        for server in cluster.replicas {
            XCTAssertTrue(try eventually(timeout: 30) { try server.request("/readyz").status == 200 },
                          "\(server.name) is ready again once the database is back\n\(server.logTail)")
        }
        let before = acknowledged.withLock { $0.count }
        XCTAssertTrue(eventually(timeout: 30) { acknowledged.withLock { $0.count } >= before + 10 }, "posting works again\n\(cluster.logs)")
        // Just after recovery a replica's pool may still be waiting out its backoff (spaced up to
        // 5 s while the database was away): until its next attempt it refuses posts with a 503,
        // storing nothing. A post is taken once it tries again.
        var after = try Self.post(cluster.a, photo: 1, "after the database came back")
        try eventually(timeout: 30) {
            guard after.status == 503 else { return true }
            XCTAssertTrue(after.text.contains("nothing was stored"), after.text)
            after = try Self.post(cluster.a, photo: 1, "after the database came back, again")
            return false
        }
        XCTAssertEqual(after.status, 201, after.text)
        let afterID = try XCTUnwrap(after.object["id"] as? Int)
        XCTAssertTrue(onB.read(timeout: 30) { $0.contains("id: \(afterID)\n") }, "B hears A's comments again")
        stop.store(true, ordering: .relaxed)
        XCTAssertEqual(posters.wait(timeout: .now() + 30), .success)

        let acked = acknowledged.withLock { $0 }
        let stored = try stored(on: cluster.b, photo: 1)
        let lost = acked.filter { stored[$0.key] != $0.value }
        XCTAssertEqual(lost.count, 0, "acknowledged but lost: \(lost.keys.sorted().prefix(10))")
        XCTAssertGreaterThan(refused.withLock { $0[503] ?? 0 }, 0)
        let heard = onB.read(timeout: 30) { _ in Set(onB.commentEventIDs).isSuperset(of: stored.keys) }
        XCTAssertTrue(heard, "B's stream got every stored comment, those of the outage too: missing \(Set(stored.keys).subtracting(onB.commentEventIDs).sorted().prefix(10))")
        for server in cluster.replicas {
            XCTAssertTrue(try eventually(timeout: 30) { try commentCount(server, photo: 1) == stored.count },
                          "\(server.name) counts \((try? commentCount(server, photo: 1)) ?? nil ?? -1), stored \(stored.count)")
        }
    }
}
