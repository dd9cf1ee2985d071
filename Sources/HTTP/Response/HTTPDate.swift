import Observability
import POSIX

/// IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`) without Foundation, so formatting a date per
/// request or per file costs a few dozen byte appends.
public enum HTTPDate {
    static let dayNames = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]
    static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The current time in whole seconds since 1970.
    public static func nowSeconds() -> Int { KernelClock.wallSeconds() }

    /// Formats seconds since 1970 (UTC) as an HTTP date.
    public static func format(_ seconds: Int) -> String {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = CivilCalendar.date(fromDays: days)
        let weekday = dayNames[((days % 7) + 7) % 7]
        return "\(weekday), \(two(day)) \(monthNames[month - 1]) \(year) \(two(secondOfDay / 3600)):\(two(secondOfDay / 60 % 60)):\(two(secondOfDay % 60)) GMT"
    }

    /// Parses an IMF-fixdate; nil for anything else (the obsolete forms are not worth the risk).
    public static func parse(_ text: String) -> Int? {
        let bytes = Array(text.utf8)
        guard bytes.count == 29, bytes[3] == UInt8(ascii: ","), bytes[4] == 32, bytes[7] == 32, bytes[11] == 32,
              bytes[16] == 32, bytes[19] == UInt8(ascii: ":"), bytes[22] == UInt8(ascii: ":"), bytes[25] == 32,
              String(decoding: bytes[26...], as: UTF8.self) == "GMT" else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for i in range {
                guard let d = RequestParser.digit(bytes[i]) else { return nil }
                value = value * 10 + d
            }
            return value
        }
        let monthText = String(decoding: bytes[8..<11], as: UTF8.self)
        guard let day = number(5..<7), let monthIndex = monthNames.firstIndex(of: monthText), let year = number(12..<16),
              let hour = number(17..<19), let minute = number(20..<22), let second = number(23..<25),
              day >= 1, day <= 31, hour < 24, minute < 60, second < 61 else { return nil }
        return CivilCalendar.days(year: year, month: monthIndex + 1, day: day) * 86_400 + hour * 3600 + minute * 60 + second
    }

    private static func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
}
