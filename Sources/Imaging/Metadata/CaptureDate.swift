import Foundation
import Observability

/// When a photo was taken: the clock reading where it was taken, and the offset from UTC when
/// the file says (a camera without a time zone setting only knows its clock).
///
/// The library is ordered by the clock reading, so a photo taken at 09:00 in Tokyo and one taken
/// at 08:00 in Lisbon on the same day sort as their owner remembers them, and month headers
/// never flap at a month's edge.
public struct CaptureDate: Sendable, Hashable, Codable, Comparable {
    /// Where the date came from.
    public enum Source: String, Sendable, Hashable, Codable {
        /// EXIF DateTimeOriginal (or DateTimeDigitized, DateTime).
        case exif
        /// XMP exif:DateTimeOriginal, photoshop:DateCreated or xmp:CreateDate.
        case xmp
        /// IPTC Date Created and Time Created.
        case iptc
        /// The file's modification time: the file does not say when it was taken.
        case file
    }

    /// The clock reading, in milliseconds since 1970-01-01 00:00:00 read on the same clock.
    public var localMilliseconds: Int64
    /// Minutes east of UTC, or nil when the file gives no time zone.
    public var offsetMinutes: Int?
    public var source: Source

    public init(localMilliseconds: Int64, offsetMinutes: Int?, source: Source) {
        self.localMilliseconds = localMilliseconds
        self.offsetMinutes = offsetMinutes
        self.source = source
    }

    /// A UTC instant (a file's modification time), read as a clock in UTC.
    public init(utcNanoseconds: Int, source: Source = .file) {
        self.init(localMilliseconds: Int64(utcNanoseconds.dividedRoundingDown(by: 1_000_000)), offsetMinutes: 0, source: source)
    }

    /// The instant in milliseconds since the epoch, when the offset is known.
    public var utcMilliseconds: Int64? {
        offsetMinutes.map { localMilliseconds - Int64($0) * 60_000 }
    }

    /// RFC 3339: `2024-03-05T14:22:01+01:00`, `…Z` for UTC, fractions only when there are any.
    /// Without a known offset it is the clock reading alone (`2024-03-05T14:22:01`), which is
    /// what JavaScript's `Date` and most parsers take for local time.
    public var rfc3339: String {
        // Spelled digit by digit: a restart spells one for every photo, and Foundation's
        // `String(format:)` made that most of the time a 100,000-photo catalog took to load.
        let fields = Self.fields(of: localMilliseconds)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(29)
        func digits(_ value: Int, _ count: Int) {
            var divisor = 1
            for _ in 1..<count { divisor *= 10 }
            var rest = value
            while divisor > 0 {
                bytes.append(UInt8(ascii: "0") + UInt8(rest / divisor % 10))
                rest %= divisor
                divisor /= 10
            }
        }
        digits(fields.year, 4); bytes.append(UInt8(ascii: "-"))
        digits(fields.month, 2); bytes.append(UInt8(ascii: "-"))
        digits(fields.day, 2); bytes.append(UInt8(ascii: "T"))
        digits(fields.hour, 2); bytes.append(UInt8(ascii: ":"))
        digits(fields.minute, 2); bytes.append(UInt8(ascii: ":"))
        digits(fields.second, 2)
        if fields.millisecond != 0 { bytes.append(UInt8(ascii: ".")); digits(fields.millisecond, 3) }
        if let offset = offsetMinutes {
            if offset == 0 {
                bytes.append(UInt8(ascii: "Z"))
            } else {
                bytes.append(UInt8(ascii: offset < 0 ? "-" : "+"))
                digits(abs(offset) / 60, 2); bytes.append(UInt8(ascii: ":"))
                digits(abs(offset) % 60, 2)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    public static func < (a: CaptureDate, b: CaptureDate) -> Bool { a.localMilliseconds < b.localMilliseconds }

    // MARK: - The calendar, proleptic Gregorian, without Foundation's time zones

    /// Milliseconds since 1970-01-01T00:00:00 for a clock reading, or nil when it is no real
    /// moment (month 13, 31 April, 25:00) or outside the years 1826 (the oldest photograph) – 2199.
    public static func localMilliseconds(year: Int, month: Int, day: Int, hour: Int, minute: Int,
                                         second: Int, millisecond: Int = 0) -> Int64? {
        guard (1826...2199).contains(year), (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day),
              (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second), (0...999).contains(millisecond) else {
            return nil
        }
        let days = CivilCalendar.days(year: year, month: month, day: day)
        let seconds = Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + min(second, 59))
        return seconds * 1000 + Int64(millisecond)
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// The calendar fields of a clock reading.
    static func fields(of milliseconds: Int64) -> (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, millisecond: Int) {
        let totalSeconds = milliseconds.dividedRoundingDown(by: 1000)
        let millisecond = Int(milliseconds - totalSeconds * 1000)
        let days = Int(totalSeconds.dividedRoundingDown(by: 86_400))
        let secondOfDay = Int(totalSeconds - Int64(days) * 86_400)
        let (year, month, day) = CivilCalendar.date(fromDays: days)
        return (year, month, day, secondOfDay / 3600, secondOfDay / 60 % 60, secondOfDay % 60, millisecond)
    }
}

extension BinaryInteger {
    /// Division that rounds towards minus infinity, so times before 1970 land in the right second.
    func dividedRoundingDown(by divisor: Self) -> Self {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}
