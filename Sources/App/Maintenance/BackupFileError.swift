/// A backup file that cannot be used; the text says why and that nothing was written.
public struct BackupFileError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
