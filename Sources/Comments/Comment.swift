import Foundation
import Observability

/// One comment under a photo, as stored and as clients see it.
public struct Comment: Sendable, Hashable {
    /// Positive, unique across all photos, and increasing: later comments have larger ids,
    /// and an id is never reused after a deletion, so it doubles as a replay cursor.
    public var id: Int
    /// The photo the comment is under.
    public var photoID: Int
    /// The name the poster gave, or "Anonymous"; one line, at most 80 characters. For a
    /// verified comment, the account name of the signed-in person who posted it.
    public var author: String
    /// What was written, as given after the submission rules (line breaks are `\n`).
    public var text: String
    /// When the comment was stored, to the second.
    public var createdAt: Date
    /// Whether `author` is the account of a person who was signed in when posting it, rather
    /// than a name someone typed. Comments stored before this was recorded are not verified.
    public var verified: Bool

    /// A comment; `createdAt` is truncated to whole seconds, as stored.
    public init(id: Int, photoID: Int, author: String, text: String, createdAt: Date, verified: Bool = false) {
        self.id = id
        self.photoID = photoID
        self.author = author
        self.text = text
        self.createdAt = Date(timeIntervalSince1970: createdAt.timeIntervalSince1970.rounded(.down))
        self.verified = verified
    }

    /// `createdAt` in RFC 3339 UTC form, e.g. `2026-11-29T10:31:02Z`.
    public var createdAtText: String { Comment.timestamp(createdAt) }

    /// RFC 3339 UTC text for `date`, to the second; formatted by hand because it is on every
    /// comment of every list (the calendar's arithmetic, no time zone database, no C call).
    public static func timestamp(_ date: Date) -> String {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let inDay = seconds - days * 86_400
        let (year, month, day) = CivilCalendar.date(fromDays: days)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(year)-\(two(month))-\(two(day))T"
            + "\(two(inDay / 3600)):\(two(inDay / 60 % 60)):\(two(inDay % 60))Z"
    }
}
