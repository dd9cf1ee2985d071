import Comments
import Foundation
import HTTP
import Synchronization
import TestSupport
import XCTest
@testable import App

final class CommentReplayTests: XCTestCase {
    /// `?lastEventId=0` on a photo with 1 500 long comments, from a client that does not read: the
    /// replay is read a page at a time as the socket drains, not all at once per stream.
    func testAReplayIsReadOnlyAsFastAsTheClientTakesIt() throws {
        let store = CountingCommentStore()
        // 2 000 four-byte characters: about 8 KB a frame, 12 MB for the whole thread.
        let text = String(repeating: "🙂", count: 2000)
        var ids: [Int] = []
        for _ in 0..<1500 { ids.append(try store.add(photoID: 1, author: "A", text: text, client: "").id) }
        let live = try CommentLiveServer(store: store)
        defer { live.stop() }

        let readers = [try live.openEvents("/photos/1/comments/events?lastEventId=0")]
        XCTAssertTrue(eventually(timeout: 30) { store.listed.load(ordering: .relaxed) > 0 }, "the replay started")
        // What the sockets' buffers hold (about 4 MB) plus a page; not all 1 500. What must not
        // happen (the whole thread read) is given a second to show; it would take far less.
        XCTAssertFalse(eventually(timeout: 1) { store.listed.load(ordering: .relaxed) >= 1000 },
                       "\(store.listed.load(ordering: .relaxed)) comments read for a client that reads nothing")

        // Read, each client gets the whole thread, in order, once.
        for reader in readers {
            XCTAssertEqual(try Self.commentIDs(reader.connection, count: ids.count), ids)
            reader.close()
        }
    }

    /// Reads raw bytes until `count` comment frames have arrived; their ids, in order.
    static func commentIDs(_ connection: HTTPClientConnection, count: Int, timeout: Double = 30) throws -> [Int] {
        var bytes: [UInt8] = []
        var frames = 0
        var scanned = 0
        let marker = Array("event: comment\n".utf8)
        var ended = false
        // Each read waits up to the connection's timeout for more.
        eventually(timeout: timeout, every: 0) {
            guard let chunk = try? connection.readAvailable() else { return false }
            if chunk.isEmpty { ended = true }
            bytes += chunk
            // memchr and memcmp: a byte loop is slow in a debug build.
            bytes.withUnsafeBytes { raw in
                let base = raw.baseAddress!
                while scanned + marker.count <= raw.count,
                      let found = memchr(base + scanned, Int32(marker[0]), raw.count - scanned - marker.count + 1) {
                    let at = base.distance(to: UnsafeRawPointer(found))
                    if memcmp(found, marker, marker.count) == 0 { frames += 1 }
                    scanned = at + 1
                }
            }
            return frames >= count || ended
        }
        return String(decoding: bytes, as: UTF8.self).components(separatedBy: "\n\n").compactMap { frame in
            guard frame.contains("event: comment") else { return nil }
            return frame.split(separator: "\n").first { $0.hasPrefix("id: ") }.flatMap { Int($0.dropFirst(4)) }
        }
    }

    /// Comments posted during a replay arrive after it, once, and the stream then stays live.
    func testCommentsPostedDuringAReplayFollowIt() throws {
        let store = CountingCommentStore()
        var ids: [Int] = []
        for i in 0..<(CommentReplay.pageSize * 3 + 7) { ids.append(try store.add(photoID: 2, author: "A", text: "old \(i)", client: "").id) }
        let live = try CommentLiveServer(store: store)
        defer { live.stop() }
        let reader = try live.openEvents("/photos/2/comments/events", headers: ["Last-Event-ID": String(ids[10])])
        defer { reader.close() }
        let during = try XCTUnwrap(try live.postJSON(2, #"{"text":"during"}"#).object["id"] as? Int)
        XCTAssertTrue(reader.read(timeout: 30) { _ in reader.commentEventIDs.last == during }, reader.text)
        XCTAssertEqual(reader.commentEventIDs, Array(ids[11...]) + [during])
        let after = try XCTUnwrap(try live.postJSON(2, #"{"text":"after"}"#).object["id"] as? Int)
        XCTAssertTrue(reader.read(timeout: 30) { _ in reader.commentEventIDs.last == after })
    }
}
