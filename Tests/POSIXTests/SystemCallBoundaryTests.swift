import Foundation
import XCTest

/// The rule docs/architecture.md states: every system call, errno and C library constant
/// reaches the program through the POSIX module. A module that imports Glibc itself, or calls
/// the C library through Foundation's re-export of it, has stepped around it; the two files of
/// the folder-walk fuzzer that do it on purpose say why.
final class SystemCallBoundaryTests: XCTestCase {
    static let sources = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources")

    /// Files outside POSIX allowed to import the C library, each with its reason in its header.
    static let allowed: Set<String> = [
        "FolderWalkFuzz/HostileTree.swift",  // makes FIFOs, devices and links the program never makes
        "FolderWalkFuzz/WalkChecks.swift",   // the oracle asks the kernel itself, not the code it checks
    ]

    /// Every line of every Swift file under Sources/ outside POSIX and `allowed`, as
    /// "File.swift:N: …" with what `offence` finds in it (nil: nothing).
    static func offences(_ offence: (Substring) -> String?) throws -> [String] {
        var offenders: [String] = []
        var seen = 0
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)
        while let file = files?.nextObject() as? URL {
            guard file.pathExtension == "swift" else { continue }
            let relative = String(file.path.dropFirst(sources.path.count + 1))
            seen += 1
            if relative.hasPrefix("POSIX/") || allowed.contains(relative) { continue }
            let text = try String(contentsOf: file, encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                if let found = offence(line) { offenders.append("\(relative):\(number + 1): \(found)") }
            }
        }
        XCTAssertGreaterThan(seen, 100, "the sources were not found at \(sources.path)")
        return offenders
    }

    func testOnlyPOSIXImportsTheCLibrary() throws {
        let offenders = try Self.offences { line in Self.importsCLibrary(line) ? String(line) : nil }
        XCTAssertEqual(offenders, [], "system calls, errno and C constants go through POSIX (docs/architecture.md)")
    }

    /// C library functions a file reaches without importing Glibc, through Foundation's re-export
    /// of it: the calls the program makes through POSIX, named so that a direct call is caught.
    /// (Names the program also gives its own methods, such as `open`, `close` or `send`, are left
    /// out: the import check above and review hold those.)
    static let cFunctions: Set<String> = [
        "openat", "openat2", "mkdir", "mkdirat", "linkat", "symlinkat", "renameat", "unlinkat", "fsync", "fdatasync",
        "fstat", "fstatat", "lstat", "access", "realpath", "getcwd", "readlink", "readlinkat", "ftruncate", "pread",
        "pwrite", "lseek", "fcntl", "ioctl", "flock", "pipe", "pipe2", "poll", "epoll_wait", "epoll_ctl", "eventfd",
        "socket", "accept4", "recv", "sendmsg", "sendfile", "inet_pton", "getrandom", "sigwait", "sigprocmask",
        "pthread_kill", "pthread_self", "getpid", "sysconf", "getrlimit", "getrusage", "setpriority", "clock_gettime",
        "nanosleep", "usleep", "inotify_init1", "inotify_add_watch", "opendir", "fdopendir", "readdir", "closedir",
        "strerror", "gmtime_r", "localtime_r", "timegm", "isatty", "fflush", "memchr", "memcmp", "memcpy", "strdup",
        "malloc", "free", "dup", "dup2", "chmod", "fchmod", "utimensat", "futimens",
    ]

    func testNoFileButPOSIXCallsTheCLibraryOrReadsErrno() throws {
        let offenders = try Self.offences { line in
            let calls = Self.cCalls(line)
            return calls.isEmpty ? nil : "\(calls.sorted()) \(line)"
        }
        XCTAssertEqual(offenders, [], "system calls, errno and C functions go through POSIX (docs/architecture.md)")
    }

    func testTheCallCheckSeesCallsAndErrnoButNotMethodsLabelsOrText() {
        XCTAssertEqual(Self.cCalls("        if fsync(fd) != 0 {"), ["fsync"])
        XCTAssertEqual(Self.cCalls("guard errno == ENOENT else { return }"), ["errno"])
        XCTAssertEqual(Self.cCalls("let x = openat(dir, name, flags); _ = isatty (1)"), ["isatty", "openat"])
        for line in ["try folder.synchronize() // fsync(2)", "/// `fsync` and `openat(2)`", "error.errno == Errno.noSpace",
                     "SystemCallError(call: \"renameat(\\(name))\", errno: code)", "try descriptor.fsync()",
                     "let systemErrno = 0", "func access(_ path: String)", "x.access(path)"] {
            XCTAssertEqual(Self.cCalls(Substring(line)), [], line)
        }
    }

    /// The C library functions of `cFunctions` that `line` calls, and "errno" when it reads or
    /// sets errno; comments and string literals are left out.
    static func cCalls(_ line: Substring) -> Set<String> {
        var code = ""
        var inString = false
        var previous: Character = " "
        for character in line {
            if !inString && character == "/" && previous == "/" { code.removeLast(); break }
            if character == "\"" && previous != "\\" { inString.toggle() }
            code.append(inString || character == "\"" ? " " : character)
            previous = character
        }
        var found: Set<String> = []
        let characters = Array(code)
        var index = 0
        while index < characters.count {
            guard characters[index].isLetter || characters[index] == "_" else { index += 1; continue }
            let start = index
            while index < characters.count, characters[index].isLetter || characters[index].isNumber || characters[index] == "_" { index += 1 }
            let word = String(characters[start..<index])
            let before = start > 0 ? characters[start - 1] : " "
            if before == "." { continue }
            if start >= 5 && String(characters[(start - 5)..<start]) == "func " { continue }
            var after = index
            while after < characters.count, characters[after] == " " { after += 1 }
            let next = after < characters.count ? characters[after] : " "
            if word == "errno" && next != ":" { found.insert(word) }
            if next == "(" && Self.cFunctions.contains(word) { found.insert(word) }
        }
        return found
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
