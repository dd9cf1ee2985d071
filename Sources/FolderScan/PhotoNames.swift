/// Which names below the photos folder a walk lists: photo files by extension, folders not
/// hidden and not too deep.
public enum PhotoNames {
    /// Extensions libvips can read, compared case-insensitively.
    public static let extensions: Set<String> = ["jpg", "jpeg", "jpe", "png", "webp", "tif", "tiff", "gif", "heic", "heif", "avif"]
    /// Folders deeper than this below the photos folder are not listed (nor watched).
    public static let maxDepth = 64

    /// Whether a file name looks like a photo (by extension; hidden files never do).
    public static func isPhotoName(_ name: String) -> Bool {
        var name = name
        return name.withUTF8 { isPhotoName(UnsafeRawBufferPointer($0)) }
    }

    /// The same for a name's bytes, as a folder entry gives them: a walk through a folder of
    /// 200,000 other files asks this of each, so it makes no String.
    public static func isPhotoName(_ name: UnsafeRawBufferPointer) -> Bool {
        guard name.first != UInt8(ascii: "."), let dot = name.lastIndex(of: UInt8(ascii: ".")) else { return false }
        let length = name.count - dot - 1
        guard (2...4).contains(length) else { return false }
        // The extension in lower case, packed into one integer, compared with the packed list.
        var packed: UInt32 = 0
        for byte in name[(dot + 1)...] { packed = packed << 8 | UInt32(byte | 0x20) }
        return packedExtensions.contains(packed)
    }

    private static let packedExtensions: Set<UInt32> = Set(extensions.map { $0.utf8.reduce(UInt32(0)) { $0 << 8 | UInt32($1) } })

    /// Whether a walk lists the folder at these real names below the photos folder by itself
    /// (so a link to it adds nothing).
    public static func isListed(folder components: [String]) -> Bool {
        components.count <= maxDepth && !components.contains { $0.hasPrefix(".") }
    }

    /// Whether a walk lists the file at these real names below the photos folder by itself.
    public static func isListed(file components: [String]) -> Bool {
        guard let name = components.last else { return false }
        return isPhotoName(name) && isListed(folder: Array(components.dropLast()))
    }

    /// `folder/name`, or `name` in the photos folder itself ("").
    public static func join(_ folder: String, _ name: String) -> String { folder.isEmpty ? name : folder + "/" + name }
}
