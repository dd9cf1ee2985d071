import Foundation

/// A decompression bomb: a 1-bit greyscale PNG that is all black, written directly in a few
/// milliseconds (libvips takes seconds to compress 1.6 gigapixels of zeros).
///
/// Its pixel data is one hand-built deflate block: a literal zero, then nothing but
/// "repeat the last 258 bytes" matches, each two bits long with a tailored Huffman code.
/// That is what zlib makes of it too, byte for byte about the same size.
enum PNGBomb {
    static func write(to path: String, width: Int, height: Int) throws {
        precondition(width % 8 == 0, "whole bytes per row keep the arithmetic simple")
        let raw = height * (1 + width / 8)  // each row: filter byte 0, then width/8 bytes of 0
        var ihdr = bigEndian32(width) + bigEndian32(height)
        ihdr += [1, 0, 0, 0, 0]  // bit depth 1, greyscale, deflate, adaptive filter, no interlace
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        png += chunk("IHDR", ihdr)
        png += chunk("IDAT", zlibOfZeros(count: raw))
        png += chunk("IEND", [])
        try Data(png).write(to: URL(fileURLWithPath: path))
    }

    /// A PNG whose header claims `width`×`height` 8-bit RGB pixels over a few hundred bytes
    /// of data: what a 1×1 file claiming the largest size looks like.
    static func writeClaim(to path: String, width: Int, height: Int) throws {
        var ihdr = bigEndian32(width) + bigEndian32(height)
        ihdr += [8, 2, 0, 0, 0]  // 8-bit RGB, deflate, adaptive filter, no interlace
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        png += chunk("IHDR", ihdr)
        png += chunk("IDAT", zlibOfZeros(count: 517))  // two runs of 258 after the first
        png += chunk("IEND", [])
        try Data(png).write(to: URL(fileURLWithPath: path))
    }

    /// A zlib stream whose content is `count` zero bytes.
    static func zlibOfZeros(count: Int) -> [UInt8] {
        precondition(count > 259)
        var bits = BitWriter()
        bits.write(1, count: 1)  // BFINAL
        bits.write(2, count: 2)  // dynamic Huffman
        bits.write(286 - 257, count: 5)  // HLIT: literal/length codes up to 285
        bits.write(1 - 1, count: 5)  // HDIST: one distance code
        bits.write(19 - 4, count: 4)  // HCLEN: all 19 code-length codes
        // Code-length code lengths in RFC 1951 order; used symbols: 0:3, 1:2, 2:3, 3:2, 18:2.
        let order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]
        let codeLengthLengths: [Int: Int] = [0: 3, 1: 2, 2: 3, 3: 2, 18: 2]
        for symbol in order { bits.write(codeLengthLengths[symbol] ?? 0, count: 3) }
        // Their canonical codes: length 2 → 1:00, 3:01, 18:10; length 3 → 0:110, 2:111.
        func codeLength(_ symbol: Int) {
            switch symbol {
            case 1: bits.huffman(0b00, count: 2)
            case 3: bits.huffman(0b01, count: 2)
            case 18: bits.huffman(0b10, count: 2)
            case 0: bits.huffman(0b110, count: 3)
            default: bits.huffman(0b111, count: 3)
            }
        }
        func zeros(_ n: Int) { codeLength(18); bits.write(n - 11, count: 7) }
        // Literal/length lengths: 0 → 3, 256 (end) → 3, 283 (lengths 195–226) → 2, 285 (258) → 1.
        codeLength(3); zeros(138); zeros(117)  // literal 0, then 1…255 unused
        codeLength(3); zeros(26)  // 256, then 257…282 unused
        codeLength(2); codeLength(0); codeLength(1)  // 283, 284, 285
        codeLength(1)  // the one distance code (distance 1) has length 1
        // Canonical codes: 285:0, 283:10, 0:110, 256:111; distance 1: 0.
        bits.huffman(0b110, count: 3)  // the first zero, as a literal
        let (matches, rest) = (count - 1).quotientAndRemainder(dividingBy: 258)
        precondition((195...226).contains(rest) || rest == 0, "pick a size whose remainder has code 283")
        bits.zeros(2 * matches)  // each: length 258 (code 0), distance 1 (code 0)
        if rest > 0 {
            bits.huffman(0b10, count: 2)
            bits.write(rest - 195, count: 5)
            bits.write(0, count: 1)
        }
        bits.huffman(0b111, count: 3)  // end of block
        let adler = UInt32(count % 65521) << 16 | 1  // a stays 1 over zeros; b counts them
        return [0x78, 0x01] + bits.finished + bigEndian32(Int(adler))
    }

    private static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return bigEndian32(data.count) + body + bigEndian32(Int(crc32(body)))
    }

    private static func bigEndian32(_ v: Int) -> [UInt8] {
        [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
    }

    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var table = [UInt32](repeating: 0, count: 256)
        for n in 0..<256 {
            var c = UInt32(n)
            for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
            table[n] = c
        }
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }

    /// Deflate's bit order: values least significant bit first, Huffman codes most significant first.
    private struct BitWriter {
        var bytes: [UInt8] = []
        private var current: UInt8 = 0
        private var used = 0

        mutating func write(_ value: Int, count: Int) {
            for i in 0..<count { bit(UInt8(value >> i & 1)) }
        }

        mutating func huffman(_ code: Int, count: Int) {
            for i in stride(from: count - 1, through: 0, by: -1) { bit(UInt8(code >> i & 1)) }
        }

        mutating func zeros(_ count: Int) {
            var left = count
            while left > 0 && used != 0 { bit(0); left -= 1 }
            bytes += [UInt8](repeating: 0, count: left / 8)
            for _ in 0..<(left % 8) { bit(0) }
        }

        private mutating func bit(_ b: UInt8) {
            current |= b << used
            used += 1
            if used == 8 { bytes.append(current); current = 0; used = 0 }
        }

        /// The bytes with the last partial byte flushed.
        var finished: [UInt8] { used == 0 ? bytes : bytes + [current] }
    }
}
