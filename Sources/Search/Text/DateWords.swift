/// How a date taken is written in the index and recognised in a query: the year (`2019`), the
/// month's English name (`july`) and the day as eight digits (`20190714`), all in the date field,
/// so that `2019`, `july`, `july 2019` and `2019-07-14` find it.
public enum DateWords {
    /// The English month names, January first, as the index writes them.
    public static let monthNames = ["january", "february", "march", "april", "may", "june", "july",
                                    "august", "september", "october", "november", "december"]

    /// The years a four-digit word is taken to name; other numbers are only words.
    public static let years = 1800...2199

    /// The date field's words for a day: its year, its month's name and the day itself.
    public static func words(year: Int, month: Int, day: Int) -> [String] {
        guard years.contains(year), (1...12).contains(month), (1...31).contains(day) else { return [] }
        return [String(year), monthNames[month - 1], dayWord(year: year, month: month, day: day)]
    }

    /// The day as the index writes it: `20190714`.
    public static func dayWord(year: Int, month: Int, day: Int) -> String {
        String(year) + twoDigits(month) + twoDigits(day)
    }

    /// The year a query word names, if it is four digits within `years`.
    public static func year(_ word: some StringProtocol) -> Int? {
        guard word.utf8.count == 4, word.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
              let year = Int(word), years.contains(year) else { return nil }
        return year
    }

    /// The month (1–12) a folded query word names in full (`july`); abbreviations are prefixes.
    public static func month(_ word: some StringProtocol) -> Int? {
        monthNames.firstIndex(of: String(word)).map { $0 + 1 }
    }

    /// The day a query word names as `YYYY-MM-DD`, if it is a real date.
    public static func day(_ word: some StringProtocol) -> (year: Int, month: Int, day: Int)? {
        let parts = word.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              parts.allSatisfy({ $0.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }),
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
              years.contains(year), (1...12).contains(month), (1...daysIn(month, of: year)).contains(day)
        else { return nil }
        return (year, month, day)
    }

    static func daysIn(_ month: Int, of year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    private static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }
}
