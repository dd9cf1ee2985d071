/// Name order with numbers compared as numbers (`photo2` before `photo10`), over UTF-8 bytes.
///
/// The catalog sorts only the names new to it, so this runs on a handful of names per scan; it
/// is still a plain byte walk rather than Foundation's locale-aware compare, which cost half of
/// every rescan when every name was sorted each time.
public enum NaturalOrder {
    /// Whether `a` sorts before `b`: digit runs by value, the rest by byte, ties by plain byte order.
    /// Paths compare folder by folder, so a folder's photos stay together (`a/z.jpg` before `a0.jpg`).
    public static func less(_ a: String, _ b: String) -> Bool {
        var a = a, b = b
        let order = a.withUTF8 { x in b.withUTF8 { y in compare(x, y) } }
        return order == 0 ? a < b : order < 0
    }

    private static let slash = UInt8(ascii: "/")

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    /// -1, 0 or 1.
    static func compare(_ x: UnsafeBufferPointer<UInt8>, _ y: UnsafeBufferPointer<UInt8>) -> Int {
        var i = 0, j = 0
        while i < x.count && j < y.count {
            let a = x[i], b = y[j]
            if isDigit(a) && isDigit(b) {
                // Skip leading zeros, then the longer run is the larger number; equal lengths
                // compare digit by digit.
                var si = i, sj = j
                while si < x.count && x[si] == 0x30 { si += 1 }
                while sj < y.count && y[sj] == 0x30 { sj += 1 }
                var ei = si, ej = sj
                while ei < x.count && isDigit(x[ei]) { ei += 1 }
                while ej < y.count && isDigit(y[ej]) { ej += 1 }
                if ei - si != ej - sj { return ei - si < ej - sj ? -1 : 1 }
                var k = 0
                while k < ei - si {
                    if x[si + k] != y[sj + k] { return x[si + k] < y[sj + k] ? -1 : 1 }
                    k += 1
                }
                i = ei
                j = ej
                continue
            }
            if a != b {
                // The end of a folder name sorts before any other byte.
                if a == slash { return -1 }
                if b == slash { return 1 }
                return a < b ? -1 : 1
            }
            i += 1
            j += 1
        }
        let restX = x.count - i, restY = y.count - j
        return restX == restY ? 0 : (restX < restY ? -1 : 1)
    }
}
