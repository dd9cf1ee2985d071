import Foundation
import XCTest

/// The rule docs/architecture.md states: every system call, errno and C library constant
/// reaches the program through the POSIX module. A module that imports Glibc itself has
/// stepped around it; the two files of the folder-walk fuzzer that do it on purpose say why.
final class SystemCallBoundaryTests: XCTestCase {
    static let sources = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources")

    /// Files outside POSIX allowed to import the C library, each with its reason in its header.
    static let allowed: Set<String> = [
        "FolderWalkFuzz/HostileTree.swift",  // makes FIFOs, devices and links the program never makes
        "FolderWalkFuzz/WalkChecks.swift",   // the oracle asks the kernel itself, not the code it checks
    ]

    func testOnlyPOSIXImportsTheCLibrary() throws {
        var offenders: [String] = []
        var seen = 0
        let files = FileManager.default.enumerator(at: Self.sources, includingPropertiesForKeys: nil)
        while let file = files?.nextObject() as? URL {
            guard file.pathExtension == "swift" else { continue }
            let relative = String(file.path.dropFirst(Self.sources.path.count + 1))
            seen += 1
            if relative.hasPrefix("POSIX/") || Self.allowed.contains(relative) { continue }
            let text = try String(contentsOf: file, encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where Self.importsCLibrary(line) {
                offenders.append("\(relative):\(number + 1): \(line)")
            }
        }
        XCTAssertGreaterThan(seen, 100, "the sources were not found at \(Self.sources.path)")
        XCTAssertEqual(offenders, [], "system calls, errno and C constants go through POSIX (docs/architecture.md)")
    }

    func testTheCheckSeesEveryWayOfSpellingTheImport() {
        for line in ["import Glibc", "  import Glibc", "@_exported import Glibc", "private import Glibc",
                     "internal import Glibc", "import func Glibc.open", "import struct Glibc.stat", "import Musl"] {
            XCTAssertTrue(Self.importsCLibrary(Substring(line)), line)
        }
        for line in ["import POSIX", "// import Glibc in a comment", "import GlibcSomething"] {
            XCTAssertFalse(Self.importsCLibrary(Substring(line)), line)
        }
    }

    /// Whether `line` imports Glibc (or Musl), whole or one of its declarations.
    static func importsCLibrary(_ line: Substring) -> Bool {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard let index = words.firstIndex(of: "import") else { return false }
        guard words[..<index].allSatisfy({ $0.hasPrefix("@") || ["public", "package", "internal", "fileprivate", "private"].contains($0) }) else {
            return false
        }
        var rest = words[(index + 1)...]
        if let kind = rest.first, ["func", "struct", "class", "enum", "var", "let", "typealias", "protocol"].contains(kind) {
            rest = rest.dropFirst()
        }
        guard let module = rest.first?.split(separator: ".").first else { return false }
        return module == "Glibc" || module == "Musl"
    }
}
