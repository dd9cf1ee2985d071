import Foundation
import XCTest
@testable import App

/// A server started away from the checkout finds no page under `Public`: it says so at start
/// instead of leaving a person to wonder at a 404 on `/`.
final class PublicFolderTests: XCTestCase {
    func testAFolderWithoutTheIndexPageIsNamedAbsolutely() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("photoscroll-public-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        XCTAssertEqual(Application.folderWithoutThePage(folder.path), folder.path, "a folder that does not exist")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("index.html"), withIntermediateDirectories: true)
        XCTAssertEqual(Application.folderWithoutThePage(folder.path), folder.path, "index.html is a folder, not the page")
        try FileManager.default.removeItem(at: folder.appendingPathComponent("index.html"))
        try Data("<!doctype html>".utf8).write(to: folder.appendingPathComponent("index.html"))
        XCTAssertNil(Application.folderWithoutThePage(folder.path), "the page is there")

        let relative = "Public"
        let cwd = FileManager.default.currentDirectoryPath
        let expected = FileManager.default.fileExists(atPath: cwd + "/Public/index.html") ? nil : cwd + "/Public"
        XCTAssertEqual(Application.folderWithoutThePage(relative), expected, "a relative folder is read from the working directory")
    }
}
