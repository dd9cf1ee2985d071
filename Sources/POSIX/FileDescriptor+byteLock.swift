#if canImport(Glibc)
import Glibc
#endif

extension FileDescriptor {
    /// Takes a write lock on the one byte at `offset` without waiting (an open file description
    /// lock, F_OFD_SETLK: owned by this descriptor, not the process, so two locks of one process
    /// are independent and closing one descriptor leaves the others). False when another holder
    /// has it; the lock goes with the descriptor's close.
    public func tryLockByte(at offset: Int64) throws(SystemCallError) -> Bool {
        var region = flock()
        region.l_type = Int16(F_WRLCK)
        region.l_whence = Int16(SEEK_SET)
        region.l_start = off_t(offset)
        region.l_len = 1
        region.l_pid = 0
        // F_OFD_SETLK is 37; Glibc's overlay does not name it (it needs _GNU_SOURCE).
        if fcntl(rawValue, 37, &region) != 0 {
            let code = errno
            if code == EAGAIN || code == EACCES { return false }
            throw SystemCallError(call: "fcntl(F_OFD_SETLK)", errno: code)
        }
        return true
    }
}
