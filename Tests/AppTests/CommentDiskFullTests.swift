import Foundation
import HTTP
import XCTest
@testable import App

/// A comment posted when the disk refuses writes is a 503 the client may retry, not a 500, and
/// the store works again once there is room. The full disk is a file-size limit
/// (RLIMIT_FSIZE) on this process: writes past the files' current ends fail as on a full disk.
final class CommentDiskFullTests: XCTestCase {
    func testAPostOnAFullDiskIs503WithRetryAfterAndLosesNothing() throws {
        let live = try CommentLiveServer()
        defer { live.stop() }
        let first = try live.postJSON(1, #"{"text":"before the disk filled"}"#)
        XCTAssertEqual(first.status, 201)

        // Writes that grow any file fail (EFBIG) instead of the process being killed (SIGXFSZ).
        let previousHandler = signal(SIGXFSZ, SIG_IGN)
        var previous = rlimit()
        getrlimit(RLIMIT_FSIZE_CONSTANT, &previous)
        let files = try FileManager.default.contentsOfDirectory(atPath: live.directory.path)
        let largest = try files.map { try FileManager.default.attributesOfItem(atPath: live.directory.path + "/" + $0)[.size] as? Int ?? 0 }.max() ?? 0
        var limit = rlimit(rlim_cur: rlim_t(largest), rlim_max: previous.rlim_max)
        XCTAssertEqual(setrlimit(RLIMIT_FSIZE_CONSTANT, &limit), 0)
        var statuses: [Int] = []
        var refused: HTTPClientResponse?
        let text = String(repeating: "x", count: 1500)
        for _ in 0..<5 where refused == nil {
            let response = try live.postJSON(1, "{\"text\":\"\(text)\"}")
            statuses.append(response.status)
            if response.status != 201 { refused = response }
        }
        setrlimit(RLIMIT_FSIZE_CONSTANT, &previous)
        signal(SIGXFSZ, previousHandler)

        let answer = try XCTUnwrap(refused, "no post was refused: \(statuses)")
        XCTAssertEqual(answer.status, 503, answer.text)
        XCTAssertEqual(answer.headers["Retry-After"], "60")
        XCTAssertEqual(answer.headers["Content-Type"], "application/problem+json")
        XCTAssertTrue(answer.text.contains("disk"), answer.text)
        XCTAssertFalse(answer.text.contains(live.directory.path), "no server path in the answer")

        // Room again: posting works, and what was stored before is all there.
        XCTAssertEqual(try live.postJSON(1, #"{"text":"after"}"#).status, 201)
        let listed = try live.send(.GET, "/photos/1/comments?limit=200")
        let texts = (listed.object["comments"] as? [[String: Any]] ?? []).compactMap { $0["text"] as? String }
        XCTAssertEqual(texts.first, "before the disk filled")
        XCTAssertEqual(texts.last, "after")
        XCTAssertEqual(texts.count, 2 + statuses.filter { $0 == 201 }.count)
    }
}

/// `RLIMIT_FSIZE` as the Int32 that `getrlimit` takes on Glibc.
let RLIMIT_FSIZE_CONSTANT = __rlimit_resource_t(RLIMIT_FSIZE.rawValue)
