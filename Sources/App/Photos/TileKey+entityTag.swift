import Library

extension TileKey {
    /// The strong ETag of this image, quoted: `"version-z-x-y"`, `"version-thumbnail"`, or
    /// `"version-r<hash of the rendition's name>"` (names hold commas, which If-None-Match lists split at).
    /// Spelled by appending into one reserved buffer: interpolation costs several times more,
    /// and a hot tile's answer is kept encoded (`TileAnswers`), so it is never spelled again.
    var entityTag: String {
        var tag = String()
        tag.reserveCapacity(version.utf8.count + 40)
        tag.append("\"")
        tag.append(version)
        if let tile {
            tag.append("-"); tag.append(String(tile.z))
            tag.append("-"); tag.append(String(tile.x))
            tag.append("-"); tag.append(String(tile.y))
        } else if let rendition {
            tag.append("-r"); tag.append(ContentHash.hex(of: Array(rendition.utf8)))
        } else {
            tag.append("-thumbnail")
        }
        tag.append("\"")
        return tag
    }
}
