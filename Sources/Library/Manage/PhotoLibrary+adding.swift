import Imaging

extension PhotoLibrary {
    /// The formats a photo may be added in: the ones the folder's scan lists by extension.
    static let addableMediaTypes: Set<String> = ["image/jpeg", "image/png", "image/webp", "image/tiff", "image/gif",
                                                 "image/heic", "image/avif"]

    /// Reads the header of a file about to be added (nothing is decoded): an image libvips reads
    /// by its content, of a format the library lists, within `maxImagePixels`. Throws
    /// `ImagingError` (`.notAnImage` for any other file, `.tooLarge` from the header).
    public func inspectAddition(_ path: String) throws -> AddedPhotoHeader {
        guard let metadata = try renderer.metadata(.file(path)) else {
            // A renderer that reads no metadata (tests) still says whether it is an image at all.
            let size = try renderer.probe(.file(path))
            return AddedPhotoHeader(mediaType: "image/jpeg", width: size.width, height: size.height, taken: nil)
        }
        guard Self.addableMediaTypes.contains(metadata.mediaType) else {
            throw ImagingError.notAnImage("\(metadata.mediaType) is not a photo format the library lists")
        }
        let taken = metadata.taken.source == .file ? nil : metadata.taken
        return AddedPhotoHeader(mediaType: metadata.mediaType, width: metadata.width, height: metadata.height, taken: taken)
    }

    /// The photo already in the library with these bytes, if any: one examined with the same
    /// content hash, or one of the same size not examined yet that turns out to have it when
    /// it is examined now.
    public func photo(withContent hashes: ContentHash.FileHashes, size: Int) -> Photo? {
        let (same, unexamined) = catalog.state.withLock { state -> ([Int], [Int]) in
            var same: [Int] = [], unexamined: [Int] = []
            for entry in state.entries.values where entry.present && entry.fingerprint.size == size {
                if !entry.hashed {
                    unexamined.append(entry.id)
                } else if hashes.hash(entry.hashKind) == entry.contentHash {
                    same.append(entry.id)
                }
            }
            return (same, unexamined)
        }
        if let id = same.min(), let photo = catalog.photo(id) { return photo }
        for id in unexamined.sorted() {
            catalog.examine(id)
            if let entry = catalog.entry(id), entry.present, entry.hashed, hashes.hash(entry.hashKind) == entry.contentHash {
                return catalog.photo(id)
            }
        }
        return nil
    }

    /// Writes into the photos folder without leaving it.
    public var writer: PhotoFolderWriter { PhotoFolderWriter(root: catalog.folder.root) }

    /// Lists the folder of a file just put in the photos folder and examines the file now, so
    /// the photo has its id when this returns (nil when another process holds the scan claim
    /// for longer than `patience`: the photo is listed by that one's scan, or the next).
    public func addNow(_ relativePath: String, patience: Duration = .seconds(2)) -> Photo? {
        rescanNow(ScanScope(directories: [PhotoFolder.parent(of: relativePath)]), patience: patience)
        return catalog.photo(relativePath: relativePath)
    }
}
