import Foundation
@testable import App
@testable import HTTP
import XCTest

/// A fixture's routes on a loopback port, its event streams opened over real sockets, and the
/// checks that a stream ended and that what was written after never reached it.
final class StreamProbe {
    /// How long a stream may take to end. It ends within a second; this is for a loaded machine.
    static let ends = 5.0
    /// How many times a stream is opened before its not opening fails the test.
    static let attempts = 3

    let fixture: AccessFixture
    private let client: TestClient
    private var opened: [EventStreamReader] = []

    init(_ fixture: AccessFixture) throws {
        self.fixture = fixture
        client = try TestClient(.live, router: fixture.router)
    }

    /// Closes the streams still open and stops the server.
    func stop() {
        for stream in opened { stream.close() }
        client.stop()
    }

    /// Opens a stream and reads its first frame, so that it is known to be open.
    func open(_ target: String, cookie: String? = nil, headers: HTTPHeaders = [:], file: StaticString = #filePath,
              line: UInt = #line) throws -> EventStreamReader {
        var fields = headers
        if let cookie { fields.add("Cookie", cookie) }
        // A stream opened while an access change is being heard (the fixture's own, late on a
        // loaded machine) is closed at once for its client to open again, as a browser does.
        for _ in 1..<Self.attempts {
            let stream = try openEventStream(port: client.port, target, headers: fields)
            opened.append(stream)
            if stream.head.status == 200, stream.read(timeout: Self.ends, until: { $0.contains("retry:") }) { return stream }
        }
        let stream = try openEventStream(port: client.port, target, headers: fields)
        opened.append(stream)
        XCTAssertEqual(stream.head.status, 200, target, file: file, line: line)
        XCTAssertTrue(stream.read(timeout: Self.ends) { $0.contains("retry:") }, "\(target) opened", file: file, line: line)
        return stream
    }

    /// Posts a comment on `photo` through `fixture` (this replica or another) as `cookie`'s
    /// person, and waits until `live` has it: a stream that had not ended would have it too.
    static func comment(_ text: String, on photo: Int, through fixture: AccessFixture, cookie: String, reaching live: EventStreamReader,
                        file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(fixture.post("/photos/\(photo)/comments", json: "{\"text\":\"\(text)\"}", cookie: cookie).status, .created,
                       file: file, line: line)
        XCTAssertTrue(live.read(timeout: ends) { $0.contains(text) }, "a live stream gets \(text)", file: file, line: line)
    }

    /// Asserts that each stream was closed by the server and never got `text`.
    static func assertEnded(_ streams: [EventStreamReader], without text: String, _ why: String,
                            file: StaticString = #filePath, line: UInt = #line) {
        for stream in streams {
            stream.read(timeout: ends) { _ in false }
            XCTAssertTrue(stream.ended, "\(why): the stream is closed", file: file, line: line)
            XCTAssertFalse(stream.text.contains(text), "\(why): nothing written after reaches it", file: file, line: line)
        }
    }
}
