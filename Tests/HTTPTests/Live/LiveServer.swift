import Foundation
import Observability
@testable import HTTP

/// A server on an ephemeral loopback port for one test, stopped by `stop()`.
final class LiveServer: Sendable {
    let server: HTTPServer
    let logs = MemoryLogSink()
    let observer = RecordingObserver()
    var port: Int { server.port }

    init(limits: HTTPLimits = HTTPLimits(), eventLoops: Int = 2, workerThreads: Int = 4, lanes: [WorkLane: Int] = [:],
         saturatedAfterSeconds: Double = 2, sink: (any LogSink)? = nil, _ build: (inout Router) -> Void) throws {
        var router = Router()
        build(&router)
        let configuration = HTTPServerConfiguration(host: "127.0.0.1", port: 0, eventLoops: eventLoops, workerThreads: workerThreads,
                                                    serverName: "PhotoScroll", limits: limits, lanes: lanes,
                                                    saturatedAfterSeconds: saturatedAfterSeconds)
        server = HTTPServer(configuration: configuration, router: router,
                            logger: Logger(label: "http", level: .info, sink: sink ?? logs), observer: observer)
        try server.start()
    }

    /// A connection whose reads wait long enough for a loaded machine: what a test waits for
    /// happens well within it, and what a test proves cannot happen does not happen at all.
    func connect(timeoutSeconds: Double = 30) throws -> HTTPClientConnection {
        try HTTPClientConnection(host: "127.0.0.1", port: port, timeoutSeconds: timeoutSeconds)
    }

    func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    func stop(graceSeconds: Double = 1) {
        server.shutdown(graceSeconds: graceSeconds)
        server.wait()
    }
}
