import Foundation
import HTTP
import Imaging
@testable import Library
import Observability
import Synchronization
import XCTest
@testable import App
import TestSupport

/// IIIF renditions over real sockets, with a renderer that holds every rendition until it is
/// released or stopped: renditions have a lane and a budget of their own, so tiles and listings
/// never wait behind them; a client past its queue gets 429, an abandoned rendition is stopped,
/// a slow one is stopped at its deadline.
final class IIIFRenderLaneTests: XCTestCase {
    /// Renditions wait for `release` (or their stop); everything else is canned.
    final class HeldRendering: PhotoRendering {
        let canned = CannedRendering()
        let started = DispatchSemaphore(value: 0)
        let stopped = DispatchSemaphore(value: 0)
        let released = Atomic<Bool>(false)

        func probe(_ path: PhotoSource) throws -> PhotoSize { try canned.probe(path) }
        func buildPyramid(source: PhotoSource, into directory: String) throws -> TilePyramid { try canned.buildPyramid(source: source, into: directory) }
        func renderTile(source: PhotoSource, tile: TileCoordinate) throws -> [UInt8] { try canned.renderTile(source: source, tile: tile) }
        func thumbnail(source: PhotoSource) throws -> [UInt8] { try canned.thumbnail(source: source) }
        func tilePath(in directory: String, _ tile: TileCoordinate) -> String { canned.tilePath(in: directory, tile) }
        func renderRegion(source: PhotoSource, pyramidDirectory: String?, pyramid: TilePyramid, _ rendition: RegionRendition) throws -> [UInt8] {
            try renderRegion(source: source, pyramidDirectory: pyramidDirectory, pyramid: pyramid, rendition, stop: nil)
        }
        func renderRegion(source: PhotoSource, pyramidDirectory: String?, pyramid: TilePyramid, _ rendition: RegionRendition,
                          stop: RenderStop?) throws -> [UInt8] {
            started.signal()
            // Waits for the release or the stop, as a long rendition looks at its stop between rows.
            eventually(timeout: 300, every: 0.001) { released.load(ordering: .relaxed) || stop?.reason != nil }
            if !released.load(ordering: .relaxed), let reason = stop?.reason {
                stopped.signal()
                throw reason
            }
            return Array("rendered \(rendition.name)".utf8)
        }
    }

    struct Fixture {
        let client: TestClient
        var server: HTTPServer { client.server! }
        let service: PhotoService
        let renderer: HeldRendering
        let root: String
        var base: String { "http://127.0.0.1:\(server.port)" }

        func stop() {
            renderer.released.store(true, ordering: .relaxed)
            client.stop()
            service.stop()
            try? FileManager.default.removeItem(atPath: root)
        }
    }

    func makeFixture(_ change: (inout Configuration) -> Void = { _ in }) throws -> Fixture {
        let root = NSTemporaryDirectory() + "iiif-lane-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: root + "/photos", withIntermediateDirectories: true)
        for i in 1...2 { CannedRendering.write(to: root + "/photos/photo\(i).jpg", width: 3000, height: 2000) }
        var configuration = Configuration()
        configuration.photos = root + "/photos"
        configuration.data = root + "/data"
        configuration.rescanSeconds = 0
        configuration.imageWorkers = 2
        configuration.iiifRenderWorkers = 2
        change(&configuration)
        let renderer = HeldRendering()
        let service = try PhotoService(configuration: configuration, renderer: renderer, logger: .disabled, metrics: MetricsRegistry())
        service.library.refresh()
        var router = Router()
        service.register(on: &router, commentCount: { _ in 0 })
        let options = TestServerOptions(server: HTTPServerConfiguration(eventLoops: 1, workerThreads: 2, lanes: WorkLanes.threads(configuration, cores: 2),
                                                                        laneBudgets: WorkLanes.budgets(configuration)))
        return Fixture(client: try TestClient(.live, router: router, options: options), service: service, renderer: renderer, root: root)
    }

    /// Sends a rendition request and leaves its connection open.
    func ask(_ f: Fixture, _ region: String) throws -> HTTPClientConnection {
        let c = try HTTPClientConnection(host: "127.0.0.1", port: f.server.port, timeoutSeconds: 30)
        try c.send("GET /iiif/3/1/\(region)/!500,500/22.5/default.png HTTP/1.1\r\nHost: x\r\n\r\n")
        return c
    }

    /// Renditions filling their lane (more of them than the images lane has threads) hold up
    /// neither another photo's tile nor the photo list. They used to share the tiles' lane.
    /// The renditions are held until the tile is answered, so a tile behind them never would be.
    func testRenditionsHoldUpNeitherTilesNorListings() throws {
        let f = try makeFixture { $0.iiifQueuePerClient = 8 }
        defer { f.stop() }
        var held: [HTTPClientConnection] = []
        for i in 0..<4 { held.append(try ask(f, "\(i * 100),0,1000,1000")) }
        for _ in 0..<2 { XCTAssertEqual(f.renderer.started.wait(timeout: .now() + 30), .success) }
        let tile = try HTTPClient.get(url: f.base + "/photos/2/tiles/0/0/0.jpg", timeoutSeconds: 30)
        XCTAssertEqual(tile.status, 200, "the tile waited behind renditions")
        XCTAssertEqual(try HTTPClient.get(url: f.base + "/iiif/3/2/0,0,3000,2000/188,125/0/default.jpg", timeoutSeconds: 30).status, 200,
                       "a IIIF request naming a pyramid tile is a tile, not a rendition")
        f.renderer.released.store(true, ordering: .relaxed)
        for c in held { XCTAssertEqual(try c.readResponse().status, 200) }
    }

    /// One client with `iiifQueuePerClient` renditions waiting gets the next refused at once:
    /// 429 with Retry-After, as problem+json a viewer on another site can read.
    func testAClientPastItsQueueGets429() throws {
        let f = try makeFixture {
            $0.iiifRenderWorkers = 1
            $0.iiifQueuePerClient = 2
        }
        defer { f.stop() }
        var held = [try ask(f, "0,0,1000,1000")]
        XCTAssertEqual(f.renderer.started.wait(timeout: .now() + 30), .success)
        for i in 1...2 { held.append(try ask(f, "\(i * 10),0,1000,1000")) }
        XCTAssertTrue(eventually(timeout: 30) { f.server.workload.first(where: { $0.lane == WorkLanes.renders })?.queued == 2 })
        let refused = try ask(f, "500,0,1000,1000").readResponse()
        XCTAssertEqual(refused.status, 429)
        XCTAssertEqual(refused.headers["Content-Type"], "application/problem+json")
        XCTAssertEqual(refused.headers["Access-Control-Allow-Origin"], "*")
        XCTAssertGreaterThanOrEqual(Int(refused.headers["Retry-After"] ?? "") ?? 0, 1)
        XCTAssertEqual(f.server.workload.first { $0.lane == WorkLanes.renders }?.refusedForClient, 1)
        f.renderer.released.store(true, ordering: .relaxed)
        for c in held { XCTAssertEqual(try c.readResponse().status, 200) }
    }

    /// `curl -m 3`: the client closes while its rendition runs; the rendition is stopped.
    func testAnAbandonedRenditionIsStopped() throws {
        let f = try makeFixture()
        defer { f.stop() }
        let c = try ask(f, "0,0,1000,1000")
        XCTAssertEqual(f.renderer.started.wait(timeout: .now() + 30), .success)
        c.close()
        XCTAssertEqual(f.renderer.stopped.wait(timeout: .now() + 30), .success, "the rendition ran on for nobody")
        eventually(timeout: 30) { f.server.workload.first(where: { $0.lane == WorkLanes.renders })?.running == 0 }
        XCTAssertEqual(f.server.workload.first { $0.lane == WorkLanes.renders }?.costInFlight, 0, "its pixels are free again")
    }

    /// The pager's fitted view of a built photo (the whole photo within a screen, as a colour JPEG) is answered in
    /// the images lane, as tiles are; the same view turned, or cut from a region, stays in the
    /// renders lane. Both are held until all three run, so the lanes' counts show where each is.
    func testTheFittedViewRunsInTheImagesLane() throws {
        let f = try makeFixture()
        defer { f.stop() }
        func load(_ lane: WorkLane) -> LaneLoad? { f.server.workload.first { $0.lane == lane } }
        XCTAssertTrue(eventually(timeout: 30) { f.service.library.imageInfo(1)?.status == .ready }, "the photo was never built")
        var held: [HTTPClientConnection] = []
        for path in ["full/!2080,1560/90/default.jpg", "0,0,1500,1000/!1000,1000/0/default.jpg", "full/!2080,1560/0/default.jpg"] {
            let c = try HTTPClientConnection(host: "127.0.0.1", port: f.server.port, timeoutSeconds: 30)
            try c.send("GET /iiif/3/1/\(path) HTTP/1.1\r\nHost: x\r\n\r\n")
            XCTAssertEqual(f.renderer.started.wait(timeout: .now() + 30), .success)
            held.append(c)
        }
        XCTAssertEqual(load(WorkLanes.images)?.running, 1, "the fitted view is not in the images lane")
        XCTAssertEqual(load(WorkLanes.renders)?.running, 2, "a turned or cut rendition left the renders lane")
        f.renderer.released.store(true, ordering: .relaxed)
        for c in held { XCTAssertEqual(try c.readResponse().status, 200) }
    }

    /// A rendition past `iiifRenderSeconds` is stopped and answered 503 with Retry-After.
    func testASlowRenditionIsStoppedAtItsDeadline() throws {
        let f = try makeFixture { $0.iiifRenderSeconds = 0.2 }
        defer { f.stop() }
        let answer = try ask(f, "0,0,1000,1000").readResponse()
        XCTAssertEqual(answer.status, 503)
        XCTAssertEqual(answer.headers["Retry-After"], "1")
        XCTAssertEqual(answer.headers["Access-Control-Allow-Origin"], "*")
        XCTAssertTrue(answer.text.contains("took longer than the 0.2 s"), answer.text)
    }

    /// After a burst of renditions, memory is given back once, when the last has ended and
    /// none has started for a moment; never while one runs.
    func testMemoryIsGivenBackOnceTheBurstEnds() {
        let released = DispatchSemaphore(value: 0)
        let count = Atomic<Int>(0)
        let memory = RenderMemory(delaySeconds: 0.05) {
            count.add(1, ordering: .relaxed)
            released.signal()
        }
        let first = DispatchSemaphore(value: 0), second = DispatchSemaphore(value: 0), running = DispatchSemaphore(value: 0)
        DispatchQueue.global().async { memory.run { running.signal(); first.wait() } }
        DispatchQueue.global().async { memory.run { running.signal(); second.wait() } }
        for _ in 0..<2 { XCTAssertEqual(running.wait(timeout: .now() + 30), .success) }
        first.signal()
        // What must not happen (a release while the second runs) is given six delays to show;
        // the release that must happen is checked next.
        XCTAssertEqual(released.wait(timeout: .now() + 0.3), .timedOut, "released while a rendition still runs")
        second.signal()
        XCTAssertEqual(released.wait(timeout: .now() + 30), .success)
        XCTAssertEqual(count.load(ordering: .relaxed), 1)
    }
}
