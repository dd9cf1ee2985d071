import POSIX
import TIFFLayout

/// A TIFF read from its open file, each read a `pread` at its offset.
struct TIFFFileBytes: TIFFBytes {
    let file: FileDescriptor
    let count: Int

    func read(at offset: Int, length: Int) -> [UInt8]? {
        guard offset >= 0, length >= 0, offset <= count - length else { return nil }
        guard length > 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: length)
        var done = 0
        while done < length {
            let got = bytes.withUnsafeMutableBytes { buffer in
                try? file.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[done...]), fromOffset: offset + done)
            }
            guard let got, got > 0 else { return nil }
            done += got
        }
        return bytes
    }
}
