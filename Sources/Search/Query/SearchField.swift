/// What part of a photo's record a word of the index comes from. The index keeps each apart, so
/// that a query can leave some out (a share link that hides location or comments) and a year can
/// ask the date alone.
public enum SearchField: String, Sendable, CaseIterable, Hashable {
    /// City, region and country, in English, from the photo's GPS.
    case place
    /// Year, month name and day taken (`DateWords`).
    case date
    /// Camera make and model, and lens.
    case camera
    /// The words of the photo's comments.
    case comment
    /// The words of its file name and of the folders above it.
    case name
    /// The titles of the albums (the collections people make) it is in. Never matched under a
    /// share link: an album's title is its owner's, not the link's.
    case album
}
