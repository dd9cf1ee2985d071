import FolderScan
import Imaging
import POSIX

extension PhotoLibrary {
    /// Opens a photo's original to be sent: only a file that was read as an image (examined,
    /// its header read, not failed; examined now when it was not yet), and only the bytes that
    /// were read (the same inode, size and modification time, on a device the scan walked,
    /// opened beneath the photos folder), and only while they still begin as an image does.
    /// A file that changed since it was read has its folder scanned now (and is examined), and
    /// is then sent if it still passes; anything else is refused.
    public func openOriginal(_ id: Int) throws(OriginalRefusal) -> OriginalFile {
        do {
            return try openOriginalAsRead(id)
        } catch .changed {
            guard let path = catalog.entry(id)?.path else { throw .gone }
            let options = PhotoCatalog.ScanOptions(examines: true, settleNanoseconds: 0,
                                                   graceNanoseconds: Int(configuration.missingGraceSeconds * 1e9))
            scan(ScanScope(directories: [PhotoFolder.parent(of: path)]), options: options)
            return try openOriginalAsRead(id)
        }
    }

    private func openOriginalAsRead(_ id: Int) throws(OriginalRefusal) -> OriginalFile {
        if catalog.entry(id)?.hashed == false { catalog.examine(id) }
        guard let photo = catalog.photo(id), let entry = catalog.entry(id), entry.present else { throw .gone }
        guard photo.status != .failed, entry.hashed, entry.error == nil, photo.width > 0 else {
            throw .notAnImage(photo.error)
        }
        let opened: Confinement.Opened
        do {
            opened = try catalog.folder.openListed(entry.path, expected: entry.fingerprint)
        } catch {
            switch error {
            case .replaced, .notRegular: throw .changed
            default:
                requestRescan()
                throw .gone
            }
        }
        let found = FileFingerprint(opened.status)
        guard found == entry.fingerprint else {
            opened.descriptor.close()
            throw .changed
        }
        var header = [UInt8](repeating: 0, count: ImageSniff.headerLength)
        let read = (try? header.withUnsafeMutableBytes { try opened.descriptor.read(into: $0, fromOffset: 0) }) ?? 0
        guard let mediaType = ImageSniff.mediaType(Array(header.prefix(read))) else {
            // Read as an image once, and no image now with the same size and time: rewritten in
            // place with its time put back. Examined again by the next full scan, not sent meanwhile.
            opened.descriptor.close()
            requestRescan()
            throw .notAnImage(nil)
        }
        return OriginalFile(descriptor: opened.descriptor, size: found.size, modifiedNanoseconds: found.modified, mediaType: mediaType)
    }
}
