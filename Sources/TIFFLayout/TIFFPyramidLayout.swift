/// A tiled TIFF's resolutions, largest first, as a pyramid: the first page and its reduced
/// levels, kept as SubIFDs of that page or as the pages after it. Each level is smaller than the
/// one above it by the same factor across and down (within a pixel of rounding); a file whose
/// levels say otherwise is refused, not guessed at.
public struct TIFFPyramidLayout: Sendable, Hashable {
    public let levels: [TIFFLevel]
    public let isBigTIFF: Bool

    /// The layout of the TIFF in `bytes`; nil when it is a TIFF but not a tiled pyramid (strips,
    /// one tiled level): such a file is built as any other photo.
    public static func read(_ bytes: TIFFBytes) throws(TIFFLayoutError) -> TIFFPyramidLayout? {
        let reader = try TIFFDirectoryReader(bytes)
        let pages = try reader.pages()
        guard let first = pages.first, let top = try TIFFLevel.read(first.directory, place: .page(0), in: bytes) else { return nil }
        var levels = [top]
        if !first.subDirectories.isEmpty {
            for (index, directory) in first.subDirectories.enumerated() {
                guard let level = try TIFFLevel.read(directory, place: .subDirectory(index), in: bytes) else {
                    throw .inconsistent("SubIFD \(index) is not tiled")
                }
                levels.append(level)
            }
        } else {
            // Pages after the first that are reduced versions of it (NewSubfileType bit 0);
            // a multi-page TIFF of different pictures has none, and is not a pyramid.
            for (index, page) in pages.enumerated().dropFirst() {
                guard (page.directory.integer(254, in: bytes) ?? 0) & 1 == 1 else { break }
                guard let level = try TIFFLevel.read(page.directory, place: .page(index), in: bytes) else { break }
                levels.append(level)
            }
        }
        guard levels.count >= 2 else { return nil }
        for (upper, lower) in zip(levels, levels.dropFirst()) {
            guard reduces(upper, to: lower) else {
                throw .inconsistent("a \(lower.width)×\(lower.height) level below a \(upper.width)×\(upper.height) one")
            }
        }
        return TIFFPyramidLayout(levels: levels, isBigTIFF: reader.isBigTIFF)
    }

    /// Whether `lower` is `upper` made smaller by one factor both ways, rounded either way.
    static func reduces(_ upper: TIFFLevel, to lower: TIFFLevel) -> Bool {
        guard lower.width < upper.width, lower.height < upper.height || (upper.height == 1 && lower.height == 1) else { return false }
        // The height the width's factor gives, and the rounding that factor allows each way.
        let factor = (upper.width + lower.width - 1) / lower.width
        let expected = upper.height * lower.width / upper.width
        return abs(lower.height - expected) <= factor + 1
    }
}
