import Foundation
import Synchronization
import XCTest
@testable import HTTP

final class ConcurrencyTests: XCTestCase {
    func testManyClientsMixingInlineAndWorkerRoutes() throws {
        let live = try LiveServer(eventLoops: 2, workerThreads: 3) { router in
            router.get("/inline/:n", execution: .inline) { r in HTTPResponse(contentType: "text/plain", bytes: Array("i\(r.parameters["n"]!)".utf8)) }
            router.get("/worker/:n") { r in
                if Int(r.parameters["n"]!)! % 7 == 0 { Thread.sleep(forTimeInterval: 0.002) }
                return HTTPResponse(contentType: "text/plain", bytes: Array("w\(r.parameters["n"]!)".utf8))
            }
        }
        defer { live.stop() }
        let problems = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 16) { client in
            do {
                let c = try live.connect()
                for batch in 0..<10 {
                    // Five pipelined requests per write, alternating where they run.
                    var text = ""
                    let numbers = (0..<5).map { client * 1000 + batch * 10 + $0 }
                    for n in numbers { text += "GET /\(n % 2 == 0 ? "inline" : "worker")/\(n) HTTP/1.1\r\nHost: x\r\n\r\n" }
                    try c.send(text)
                    for n in numbers {
                        let expected = (n % 2 == 0 ? "i" : "w") + String(n)
                        let body = try c.readResponse().text
                        if body != expected { problems.withLock { $0.append("\(expected) got \(body)") } }
                    }
                }
            } catch {
                problems.withLock { $0.append("client \(client): \(error)") }
            }
        }
        XCTAssertEqual(problems.withLock { $0 }, [])
    }
}
