/// One entry of a folder, as `readdir` gives it.
public struct DirectoryEntry {
    /// The name's bytes, without the terminating NUL; valid only while the callback runs.
    public let name: UnsafeRawBufferPointer
    /// `d_type`: `DT_DIR`, `DT_REG`, `DT_LNK`, `DT_UNKNOWN` (the file system does not say), …
    public let type: UInt8

    /// The name, or nil when its bytes are not UTF-8 (such a name cannot be spelled in a path
    /// String without changing which file it names).
    public var text: String? { String(validating: name, as: UTF8.self) }

    /// What the entry is, as far as its folder says (`.unknown` when the file system does not).
    @inlinable public var fileKind: FileKind { FileKind(entryType: type) }

    /// Whether the name starts with a dot (hidden, and `.` and `..`).
    public var isHidden: Bool { name.first == UInt8(ascii: ".") }
}
