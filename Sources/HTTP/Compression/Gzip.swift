private import CZlib

/// gzip through zlib; the only file that imports it.
public enum Gzip {
    /// The gzip (RFC 1952) encoding of `bytes`; nil only if zlib fails, which it should not.
    public static func compress(_ bytes: [UInt8], level: Int32 = 6) -> [UInt8]? {
        var stream = z_stream()
        // windowBits 15 + 16 asks deflate for a gzip wrapper instead of zlib's.
        guard deflateInit2_(&stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            return nil
        }
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(bytes.count))) + 32)
        let status: Int32 = bytes.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
                stream.avail_in = uInt(input.count)
                stream.next_out = out.baseAddress
                stream.avail_out = uInt(out.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { return nil }
        output.removeLast(output.count - Int(stream.total_out))
        return output
    }

    /// Decodes gzip data; nil when it is not valid gzip.
    public static func decompress(_ bytes: [UInt8], limit: Int = 64 << 20) -> [UInt8]? {
        var stream = z_stream()
        guard inflateInit2_(&stream, 15 + 16, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var input = bytes
        return input.withUnsafeMutableBufferPointer { inBuffer -> [UInt8]? in
            stream.next_in = inBuffer.baseAddress
            stream.avail_in = uInt(inBuffer.count)
            while true {
                let (status, produced) = chunk.withUnsafeMutableBufferPointer { out -> (Int32, Int) in
                    stream.next_out = out.baseAddress
                    stream.avail_out = uInt(out.count)
                    let status = inflate(&stream, Z_NO_FLUSH)
                    return (status, out.count - Int(stream.avail_out))
                }
                output.append(contentsOf: chunk[0..<produced])
                if status == Z_STREAM_END { return output }
                if status != Z_OK || output.count > limit || (produced == 0 && stream.avail_in == 0) { return nil }
            }
        }
    }
}
