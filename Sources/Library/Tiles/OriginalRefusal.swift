/// Why a photo's original is not sent.
public enum OriginalRefusal: Error, Equatable, Sendable {
    /// The file was not read as an image (it failed, or its header could not be read): it may
    /// be any file at all, so it is never sent.
    case notAnImage(String?)
    /// The file is another than the one read, or changed since: it is looked at again.
    case changed
    /// The file is no longer there, or no longer leads to the photos folder.
    case gone
}
