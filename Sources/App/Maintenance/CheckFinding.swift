/// One thing `photoscroll check` found wrong, and whether `--repair` put it right.
struct CheckFinding: Sendable, Equatable, CustomStringConvertible {
    enum Kind: String, Sendable {
        case missingFile = "missing file", missingTile = "missing tile", badTile = "bad tile"
        case orphanComment = "orphan comment", orphanShare = "orphan share link", orphanFavourite = "orphan favourite"
        case orphanAlbumPhoto = "orphan album photo"
    }

    let kind: Kind
    let detail: String
    var repaired = false

    var description: String { "\(kind.rawValue): \(detail)" + (repaired ? " (repaired)" : "") }
}
