import POSIX

/// Log timestamps without Foundation: `2026-11-29T10:31:02.123Z`, UTC with its `Z` (a time
/// without a zone is ambiguous to log collectors).
///
/// The date and time of day are worked out once per second and kept as bytes; a line within
/// the same second only adds its three millisecond digits.
public struct LogTimestamp {
    /// The whole second the prefix spells, or `Int.min` before the first line.
    private var second = Int.min
    /// `2026-11-29T10:31:02.` for `second`.
    private var prefix: (UInt64, UInt64, UInt32) = (0, 0, 0)

    public init() {}

    /// The wall clock now, as seconds and milliseconds since the epoch.
    @inlinable
    public static func now() -> (seconds: Int, milliseconds: Int) { KernelClock.wallMilliseconds() }

    /// Writes the 24 bytes of the timestamp at `out`.
    public mutating func write(seconds: Int, milliseconds: Int, to out: UnsafeMutablePointer<UInt8>) {
        if seconds != second { spell(seconds) }
        withUnsafeBytes(of: prefix) { raw in
            UnsafeMutableRawPointer(out).copyMemory(from: raw.baseAddress!, byteCount: 20)
        }
        let ms = max(0, min(999, milliseconds))
        out[20] = UInt8(48 + ms / 100)
        out[21] = UInt8(48 + ms / 10 % 10)
        out[22] = UInt8(48 + ms % 10)
        out[23] = UInt8(ascii: "Z")
    }

    /// The timestamp as a string, for lines written one at a time.
    public static func string(seconds: Int, milliseconds: Int) -> String {
        var stamp = LogTimestamp()
        return String(unsafeUninitializedCapacity: 24) { buffer in
            stamp.write(seconds: seconds, milliseconds: milliseconds, to: buffer.baseAddress!)
            return 24
        }
    }

    private mutating func spell(_ seconds: Int) {
        second = seconds
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let inDay = seconds - days * 86_400
        let (year, month, day) = CivilCalendar.date(fromDays: days)
        var bytes = [UInt8](repeating: 0, count: 20)
        func put(_ value: Int, _ digits: Int, at offset: Int) {
            var value = value
            for i in stride(from: digits - 1, through: 0, by: -1) {
                bytes[offset + i] = UInt8(48 + value % 10)
                value /= 10
            }
        }
        put(year, 4, at: 0); bytes[4] = UInt8(ascii: "-")
        put(month, 2, at: 5); bytes[7] = UInt8(ascii: "-")
        put(day, 2, at: 8); bytes[10] = UInt8(ascii: "T")
        put(inDay / 3600, 2, at: 11); bytes[13] = UInt8(ascii: ":")
        put(inDay / 60 % 60, 2, at: 14); bytes[16] = UInt8(ascii: ":")
        put(inDay % 60, 2, at: 17); bytes[19] = UInt8(ascii: ".")
        bytes.withUnsafeBytes { raw in
            withUnsafeMutableBytes(of: &prefix) { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: raw[0..<20])) }
        }
    }
}
