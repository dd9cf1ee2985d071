import Foundation
import Observability
import XCTest
@testable import HTTP

/// Request targets resolve to files inside the root, from memory after the first time, and a
/// refused target is refused every time.
final class StaticPathResolverTests: XCTestCase {
    private var root: URL!

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("resolver-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("css"), withIntermediateDirectories: true)
        try Data("body{}".utf8).write(to: root.appendingPathComponent("css/site.css"))
        try Data("<p>".utf8).write(to: root.appendingPathComponent("index.html"))
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: root)
    }

    func testTargetsResolveLikeTheirRelativePathsAndAgainFromMemory() throws {
        let resolver = StaticPathResolver(root: root.path)
        let expected = resolver.resolve("css/site.css")
        XCTAssertNotNil(expected)
        for _ in 0..<3 {
            XCTAssertEqual(try resolver.resolve(target: "/css/site.css"), expected)
            XCTAssertEqual(try resolver.resolve(target: "/css/site.css?v=2"), expected)
            XCTAssertEqual(try resolver.resolve(target: "/css/%73ite.css"), expected)
        }
        XCTAssertEqual(try resolver.resolve(target: "/"), resolver.resolve("index.html"))
        XCTAssertNil(try resolver.resolve(target: "/css/missing.css"))
    }

    /// A resolution is trusted for `lifetimeSeconds` on the resolver's clock, then looked up again.
    func testARememberedResolutionExpiresAfterItsLifetime() throws {
        let clock = ManualClock()
        let resolver = StaticPathResolver(root: root.path, clock: clock)
        XCTAssertNil(try resolver.resolve(target: "/late.css"))
        try "late".write(to: root.appendingPathComponent("late.css"), atomically: true, encoding: .utf8)
        clock.advance(by: StaticPathResolver.lifetimeSeconds * 0.9)
        XCTAssertNil(try resolver.resolve(target: "/late.css"), "still the remembered answer")
        clock.advance(by: StaticPathResolver.lifetimeSeconds * 0.2)
        XCTAssertEqual(try resolver.resolve(target: "/late.css"), resolver.resolve("late.css"))
        XCTAssertNotNil(resolver.resolve("late.css"))
    }

    func testRefusedTargetsAreRefusedEveryTime() {
        let resolver = StaticPathResolver(root: root.path)
        for _ in 0..<3 {
            XCTAssertThrowsError(try resolver.resolve(target: "/css%2Fsite.css"))
            XCTAssertThrowsError(try resolver.resolve(target: "/css/site.css%00"))
            XCTAssertThrowsError(try resolver.resolve(target: "/..\\etc/passwd"))
        }
        // Dot segments are not files: never found, whether asked for plainly or encoded.
        XCTAssertNil(try? resolver.resolve(target: "/../etc/passwd") ?? nil)
        XCTAssertNil(try? resolver.resolve(target: "/%2e%2e/etc/passwd") ?? nil)
    }
}
