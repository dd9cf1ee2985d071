import Foundation
import POSIX

/// A photo file to read. It is opened anew for every libvips source made from it (a source
/// keeps a file position of its own, so two must never share one open file), each time through
/// `open`: that is where the library opens it beneath the photos folder and checks that it is
/// the file it listed. libvips is only ever handed the descriptor, never a name it would
/// resolve again by itself (a file source even closes and reopens its file by name when idle).
public struct PhotoSource: Sendable, CustomStringConvertible {
    /// How the file is named in messages: its path in the library.
    public let name: String
    private let opener: @Sendable () throws -> FileDescriptor

    /// `open` returns a descriptor open for reading on a regular file, which the caller closes.
    public init(name: String, open: @escaping @Sendable () throws -> FileDescriptor) {
        self.name = name
        self.opener = open
    }

    /// A new descriptor on the file; the caller closes it.
    public func open() throws -> FileDescriptor {
        do {
            return try opener()
        } catch let error as ImagingError {
            throw error
        } catch let error as SystemCallError {
            throw ImagingError.io("\(name): \(error.reason)")
        } catch {
            throw ImagingError.io("\(name): \(error)")
        }
    }

    public var description: String { name }

    /// A file named by whoever runs the program (a test, `photoscroll export /some/photo.jpg`),
    /// opened by that path. Still only a regular file is read: O_NONBLOCK keeps a FIFO from
    /// blocking the open, and anything but a regular file is refused before a byte is read.
    public static func file(_ path: String) -> PhotoSource {
        PhotoSource(name: path) {
            let file = try FileDescriptor.open(path, OpenFlags.readOnly | OpenFlags.nonBlocking | OpenFlags.noControllingTerminal)
            guard let status = try? file.status(), status.isRegularFile else {
                file.close()
                throw ImagingError.notAnImage("not a regular file")
            }
            return file
        }
    }
}
