import POSIX
import Synchronization

/// SQLite's advisory locks: one byte each of a lock file, locked through its own file description.
final class FileLockSession: LockSession {
    private struct Held {
        let fd: FileDescriptor
        let ticket: Int64
    }

    private let path: String
    private let state = Mutex<(held: [Int64: Held], lastTicket: Int64)>(([:], 0))

    init(path: String) {
        self.path = path
    }

    func tryLock(_ key: SQLLockKey) throws -> Int64? {
        try state.withLock { state -> Int64? in
            guard state.held[key.value] == nil else { return nil }
            let fd: FileDescriptor
            do throws(SystemCallError) { fd = try FileDescriptor.open(path, OpenFlags.readWrite | OpenFlags.create, permissions: 0o666) } catch {
                throw SQLError(.other, message: "cannot open the lock file \(path): errno \(error.errno)")
            }
            // Byte offsets are non-negative; 62 bits of the key keep every offset in range. The
            // lock is the file description's, not the process's, so two keys of one process are
            // independent and closing one descriptor leaves the others.
            let locked: Bool
            do throws(SystemCallError) { locked = try fd.tryLockByte(at: Int64(bitPattern: UInt64(bitPattern: key.value) >> 2)) } catch {
                fd.close()
                throw SQLError(.other, message: "cannot lock \(path): errno \(error.errno)")
            }
            guard locked else {
                fd.close()
                return nil
            }
            state.lastTicket += 1
            state.held[key.value] = Held(fd: fd, ticket: state.lastTicket)
            return state.lastTicket
        }
    }

    func isHeld(_ key: SQLLockKey, ticket: Int64) -> Bool {
        state.withLock { $0.held[key.value]?.ticket == ticket }
    }

    func release(_ key: SQLLockKey, ticket: Int64) {
        state.withLock { state in
            guard let held = state.held[key.value], held.ticket == ticket else { return }
            state.held[key.value] = nil
            held.fd.close()
        }
    }
}
