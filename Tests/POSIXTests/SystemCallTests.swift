import Foundation
import Glibc
import POSIX
import Synchronization
import XCTest

final class SystemCallTests: XCTestCase {
    func testInterruptedCallsAreRetriedUntilTheyAnswer() throws {
        var attempts = 0
        var codes: [Int32] = [EINTR, EINTR, EINTR]
        let result = try systemCall("read") { () -> Int in
            attempts += 1
            if !codes.isEmpty { errno = codes.removeFirst(); return -1 }
            return 7
        }
        XCTAssertEqual(result, .done(7))
        XCTAssertEqual(attempts, 4, "three interruptions, then the answer")
    }

    func testWouldBlockIsAnAnswerNotAnError() throws {
        for code in [EAGAIN, EWOULDBLOCK] {
            let result = try systemCall("recv") { () -> Int in errno = code; return -1 }
            XCTAssertEqual(result, .wouldBlock)
        }
    }

    func testFailuresCarryTheCallAndErrno() {
        XCTAssertThrowsError(try systemCall("connect") { () -> Int32 in errno = ECONNREFUSED; return -1 }) { error in
            XCTAssertEqual(error as? SystemCallError, SystemCallError(call: "connect", errno: ECONNREFUSED))
            XCTAssertEqual("\(error)", "connect: \(String(cString: strerror(ECONNREFUSED))) (errno \(ECONNREFUSED))")
        }
        // A call that must not block reports EAGAIN as the failure it is.
        XCTAssertThrowsError(try requireSystemCall("eventfd") { () -> Int32 in errno = EAGAIN; return -1 }) { error in
            XCTAssertEqual(error as? SystemCallError, SystemCallError(call: "eventfd", errno: EAGAIN))
        }
    }

    func testTypedErrorNeedsNoCast() {
        do {
            _ = try FileDescriptor.open("/nonexistent-\(getpid())/photo.jpg", O_RDONLY)
            XCTFail("opened a file in a folder that is not there")
        } catch {
            // `error` is a SystemCallError here: the throw is typed.
            XCTAssertEqual(error.errno, ENOENT)
            XCTAssertEqual(error.call, "open(/nonexistent-\(getpid())/photo.jpg)")
            XCTAssertEqual(error.reason, String(cString: strerror(ENOENT)))
        }
    }

    /// A real signal, with a handler installed without SA_RESTART, interrupts a blocking read on
    /// a pipe: the kernel then returns EINTR, and the read must go on and return the bytes.
    func testASignalDuringABlockingReadIsRetried() throws {
        var fds: [Int32] = [-1, -1]
        XCTAssertEqual(pipe(&fds), 0)
        let reader = FileDescriptor(rawValue: fds[0]), writer = FileDescriptor(rawValue: fds[1])
        defer { reader.close(); writer.close() }

        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in }
        action.sa_flags = 0  // no SA_RESTART: the kernel returns EINTR instead of restarting the read
        sigemptyset(&action.sa_mask)
        var previous = sigaction()
        XCTAssertEqual(sigaction(SIGUSR2, &action, &previous), 0)
        defer { sigaction(SIGUSR2, &previous, nil) }

        let probe = ReadProbe()
        let thread = Thread {
            probe.thread.withLock { $0 = pthread_self() }
            var byte: UInt8 = 0
            let result = Result { () throws(SystemCallError) in
                try systemCall("read") { () -> Int in
                    probe.attempts.add(1, ordering: .sequentiallyConsistent)
                    return Glibc.read(reader.rawValue, &byte, 1)
                }
            }
            probe.finish(result.map { _ in byte })
        }
        thread.start()

        // Signal the reader until one signal has interrupted its read (a second attempt began),
        // then give it a byte. The signal is resent because the reader may not have reached
        // read(2) when the first one arrives.
        let deadline = ContinuousClock.now + .seconds(60)
        while probe.attempts.load(ordering: .sequentiallyConsistent) < 2 && ContinuousClock.now < deadline {
            if let target = probe.thread.withLock({ $0 }) { pthread_kill(target, SIGUSR2) }
            usleep(10_000)
        }
        XCTAssertGreaterThanOrEqual(probe.attempts.load(ordering: .sequentiallyConsistent), 2, "no signal interrupted the read")
        var byte: UInt8 = 42
        try withUnsafeBytes(of: &byte) { buffer in try writer.write(buffer) }
        XCTAssertEqual(probe.wait(), .success(42), "the interrupted read went on and returned the byte")
    }

    func testFileContentsAndStatus() throws {
        let path = NSTemporaryDirectory() + "posix-tests-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        defer { unlink(path) }
        let file = try FileDescriptor.open(path, O_WRONLY | O_CREAT | O_TRUNC, permissions: 0o600)
        let bytes = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        try bytes.withUnsafeBytes { buffer in try file.write(buffer) }
        XCTAssertEqual(try file.status().st_size, 100_000)
        file.close()
        XCTAssertEqual(FileDescriptor.contents(ofFile: path), bytes)
        XCTAssertEqual(try fileStatus(path).st_mode & S_IFMT, S_IFREG)
        XCTAssertNil(FileDescriptor.contents(ofFile: path + ".missing"))
        XCTAssertThrowsError(try fileStatus(path + ".missing")) { error in
            XCTAssertEqual((error as? SystemCallError)?.errno, ENOENT)
        }
    }
}
