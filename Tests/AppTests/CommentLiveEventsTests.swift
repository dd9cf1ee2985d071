import Comments
import Foundation
import HTTP
import Observability
import XCTest
@testable import App

/// Live events with the stream's far end in memory; CommentLiveTests does the same over a socket.
final class CommentLiveEventsTests: XCTestCase {
    /// Opens the events route in-process and starts its stream body on a recording stream.
    private func subscribe(_ fixture: CommentFixture, _ target: String, headers: HTTPHeaders = [:]) throws -> RecordingStream {
        let response = fixture.respond(.GET, target, headers: headers)
        XCTAssertEqual(response.status, .ok, response.text)
        XCTAssertEqual(response.headers["Content-Type"], "text/event-stream")
        XCTAssertEqual(response.headers["Cache-Control"], "no-cache")
        guard case .stream(let start) = response.body else {
            XCTFail("the events route answers with a stream body")
            throw HTTPError(.internalServerError, "no stream")
        }
        let stream = RecordingStream()
        start(stream)
        return stream
    }

    func testANewCommentReachesEveryListenerOnThatPhotoOnly() throws {
        let fixture = CommentFixture()
        let first = try subscribe(fixture, "/photos/3/comments/events")
        let second = try subscribe(fixture, "/photos/3/comments/events")
        let other = try subscribe(fixture, "/photos/4/comments/events")
        XCTAssertTrue(first.text.hasPrefix("retry: 2000\n\n"))
        XCTAssertEqual(fixture.service.events.count(photoID: 3), 2)
        XCTAssertEqual(fixture.metrics.gauge("photoscroll_comment_streams", help: "").value(), 3)

        let posted = fixture.postJSON(3, #"{"text":"Looks like a Pip","author":"Ana"}"#)
        let id = try XCTUnwrap(posted.object["id"] as? Int)
        let frame = "id: \(id)\nevent: comment\ndata: \(posted.text)\n\n"
        XCTAssertTrue(first.waitFor { $0.hasSuffix(frame) }, first.text)
        XCTAssertTrue(second.waitFor { $0.hasSuffix(frame) }, second.text)
        XCTAssertEqual(other.text, "retry: 2000\n\n")
    }

    func testDeletionsArePublishedWithoutMovingTheCursor() throws {
        let fixture = CommentFixture(adminToken: "t")
        let listener = try subscribe(fixture, "/photos/1/comments/events")
        let id = try XCTUnwrap(fixture.postJSON(1, #"{"text":"x"}"#).object["id"] as? Int)
        XCTAssertEqual(fixture.respond(.DELETE, "/photos/1/comments/\(id)", headers: ["Authorization": "Bearer t"]).status, .noContent)
        XCTAssertTrue(listener.waitFor { $0.hasSuffix("event: delete\ndata: {\"id\":\(id),\"photoId\":1}\n\n") }, listener.text)
    }

    func testReconnectingWithLastEventIDReplaysWhatWasMissedThenGoesLive() throws {
        let fixture = CommentFixture()
        var ids: [Int] = []
        for i in 0..<5 { ids.append(try XCTUnwrap(fixture.postJSON(2, "{\"text\":\"n\(i)\"}").object["id"] as? Int)) }
        _ = fixture.postJSON(3, #"{"text":"other photo"}"#)

        let byHeader = try subscribe(fixture, "/photos/2/comments/events", headers: ["Last-Event-ID": String(ids[1])])
        XCTAssertTrue(byHeader.waitFor { _ in byHeader.commentEventIDs.count == 3 })
        XCTAssertEqual(byHeader.commentEventIDs, Array(ids[2...]))
        let byQuery = try subscribe(fixture, "/photos/2/comments/events?lastEventId=0")
        XCTAssertTrue(byQuery.waitFor { _ in byQuery.commentEventIDs.count == 5 })
        XCTAssertEqual(byQuery.commentEventIDs, ids)

        let live = try XCTUnwrap(fixture.postJSON(2, #"{"text":"live"}"#).object["id"] as? Int)
        XCTAssertTrue(byHeader.waitFor { _ in byHeader.commentEventIDs.last == live })
        XCTAssertEqual(byHeader.commentEventIDs, Array(ids[2...]) + [live], "each comment once, in order")
        XCTAssertEqual(fixture.respond(.GET, "/photos/2/comments/events?lastEventId=x").status, .badRequest)
    }

    func testCommentsPostedWhileAListenerCatchesUpAreSentOnceInOrder() throws {
        let fixture = CommentFixture()
        for i in 0..<50 { _ = fixture.postJSON(1, "{\"text\":\"before \(i)\"}") }
        let writers = DispatchGroup()
        DispatchQueue.global().async(group: writers) {
            for i in 0..<100 { _ = fixture.postJSON(1, "{\"text\":\"during \(i)\"}") }
        }
        var listeners: [RecordingStream] = []
        for _ in 0..<10 { listeners.append(try subscribe(fixture, "/photos/1/comments/events?lastEventId=0")) }
        writers.wait()
        let all = try fixture.store.list(photoID: 1, after: nil, limit: 500).map(\.id)
        XCTAssertEqual(all.count, 150)
        for listener in listeners {
            XCTAssertTrue(listener.waitFor { _ in listener.commentEventIDs.count >= 150 })
            XCTAssertEqual(listener.commentEventIDs, all)
        }
    }

    func testClosedStreamsAreForgottenAndStopClosesTheRest() throws {
        let fixture = CommentFixture()
        let leaving = try subscribe(fixture, "/photos/1/comments/events")
        let staying = try subscribe(fixture, "/photos/1/comments/events")
        leaving.hangUp()
        XCTAssertEqual(fixture.service.events.count(), 1)
        XCTAssertEqual(fixture.metrics.gauge("photoscroll_comment_streams", help: "").value(), 1)
        fixture.service.stop()
        XCTAssertTrue(staying.isClosed)
        XCTAssertEqual(fixture.metrics.gauge("photoscroll_comment_streams", help: "").value(), 0)
        let late = RecordingStream()
        fixture.service.events.open(photoID: 1, stream: late, lastEventID: nil,
                                    replay: CommentReplaySource(deletedIDs: { _ in [] }, page: { _, _ in [] }))
        XCTAssertTrue(late.isClosed, "no new streams once stopping")
    }

    func testHeartbeatsKeepIdleStreamsAliveAndFindDeadOnes() throws {
        let fixture = CommentFixture(heartbeatSeconds: 0.05)
        let stream = try subscribe(fixture, "/photos/1/comments/events")
        XCTAssertTrue(stream.waitFor { $0.components(separatedBy: ": keep-alive\n\n").count >= 3 }, stream.text)
        stream.hangUp()
        XCTAssertEqual(fixture.service.events.count(), 0)
    }
}
