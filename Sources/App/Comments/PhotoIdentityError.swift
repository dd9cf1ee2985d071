/// The refusal to start: what disagrees, in words, and how to recover.
public struct PhotoIdentityError: Error, CustomStringConvertible {
    public let description: String

    init(_ wrong: [PhotoIdentityCheck.Disagreement], photos: Int) {
        let examples = wrong.prefix(3).map { item -> String in
            let was = "\(item.recorded.path) (content \(item.recorded.contentHash.prefix(8)))"
            guard let row = item.catalog else { return "photo \(item.recorded.photoID) was \(was) and is not in the catalog" }
            return "photo \(item.recorded.photoID) was \(was) and is now \(row.path) (content \(row.contentHash.prefix(8)))"
        }
        let more = wrong.count > 3 ? ", and \(wrong.count - 3) more" : ""
        description = """
            the comments and the photo catalog disagree about which photo is which: \(examples.joined(separator: "; "))\(more) \
            (\(wrong.count) of \(photos) photos with comments). The catalog (catalog.sqlite in the data folder) was probably \
            deleted or replaced and its photos numbered anew; started like this, comments would show under other photos. \
            To recover, stop every server on this data folder, then either put back the catalog.sqlite that belongs with \
            these comments, or run `photoscroll reattach-comments` to move each photo's comments to the photo that now holds \
            its file (by content, else by path).
            """
    }
}
