import Library

/// Messages as a client may see them: never a path on the server. The full text goes to the log.
enum ClientText {
    /// A photo's error for its JSON and its images' problems: its own file by its path in the
    /// library, any other server path as "a file on the server".
    static func photoError(_ text: String, of photo: Photo) -> String {
        var text = text.replacingOccurrences(of: photo.sourcePath, with: photo.relativePath)
        let root = photo.sourcePath.hasSuffix("/" + photo.relativePath)
            ? String(photo.sourcePath.dropLast(photo.relativePath.utf8.count + 1)) : ""
        if !root.isEmpty { text = text.replacingOccurrences(of: root + "/", with: "") }
        return withoutServerPaths(text)
    }

    /// `text` with every absolute path (a word starting with `/` that holds another `/`) replaced.
    static func withoutServerPaths(_ text: String) -> String {
        var out = ""
        var word = ""
        func flush() {
            if word.hasPrefix("/") && word.dropFirst().contains("/") {
                // Keep what ends the word (a colon or bracket of the sentence) outside it.
                let trailing = word.reversed().prefix { ":,;)]'\"".contains($0) }
                out += "a file on the server" + String(trailing.reversed())
            } else {
                out += word
            }
            word = ""
        }
        for character in text {
            if character == " " || character == "(" || character == "\"" || character == "'" || character == "=" || character == "\n" {
                flush()
                out.append(character)
            } else {
                word.append(character)
            }
        }
        flush()
        return out
    }
}
