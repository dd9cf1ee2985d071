import Foundation
import SQLTesting
import XCTest
@testable import SQL

/// A python3 child that tries to lock one byte of a file and says `locked` or `busy`, then waits to be killed.
final class LockingProcess {
    private let process = Process()
    private let output = Pipe()

    init(path: String, offset: UInt64) throws {
        let script = """
            import fcntl, os, sys, time
            fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT)
            try:
                fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB, 1, int(sys.argv[2]))
                print("locked", flush=True)
            except OSError:
                print("busy", flush=True)
            time.sleep(60)
            """
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", script, path, String(offset)]
        process.standardOutput = output
        try process.run()
    }

    func readLine() -> String {
        var line = Data()
        while true {
            let byte = output.fileHandleForReading.readData(ofLength: 1)
            if byte.isEmpty || byte == Data("\n".utf8) { break }
            line.append(byte)
        }
        return String(decoding: line, as: UTF8.self)
    }

    func kill() {
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
