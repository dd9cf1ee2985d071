import Comments
import Foundation
import HTTP
import Observability
import TestSupport
import XCTest
@testable import App

/// Reads a Server-Sent Events stream off a client connection.
final class EventStreamReader {
    let connection: HTTPClientConnection
    let head: HTTPClientResponse
    private(set) var text = ""
    private(set) var ended = false

    init(connection: HTTPClientConnection, head: HTTPClientResponse) {
        self.connection = connection
        self.head = head
    }

    /// Reads until `condition` holds on everything received, the stream ends, or `timeout` passes.
    @discardableResult
    func read(timeout: Double, until condition: (String) -> Bool) -> Bool {
        // Each read waits up to the connection's 0.2 s for more.
        eventually(timeout: timeout, every: 0) {
            if condition(text) || ended { return true }
            // A throw is the short read timeout passing with nothing new.
            if let bytes = try? connection.readAvailable() {
                if bytes.isEmpty { ended = true }
                text += String(decoding: bytes, as: UTF8.self)
            }
            return condition(text) || ended
        }
        return condition(text)
    }

    /// Ids of the `event: comment` frames received so far, in order.
    var commentEventIDs: [Int] {
        text.components(separatedBy: "\n\n").compactMap { frame in
            guard frame.contains("event: comment") else { return nil }
            return frame.split(separator: "\n").first { $0.hasPrefix("id: ") }.flatMap { Int($0.dropFirst(4)) }
        }
    }

    func close() { connection.close() }
}
