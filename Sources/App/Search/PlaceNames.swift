import Foundation
import Observability
import Search
import Synchronization

/// The place tables, read once when first asked for: by the search indexer's thread soon after
/// start, so that reading a table of a hundred thousand cities never delays the server's start.
/// Whoever asks first waits for the read; everyone after gets what it found.
final class PlaceNames: Sendable {
    let folder: URL
    let logger: Logger
    private let loaded = Mutex<PlaceIndex??>(nil)

    init(folder: URL, logger: Logger) {
        self.folder = folder
        self.logger = logger
    }

    /// The index, or nil without a cities table (said once in the log).
    var index: PlaceIndex? {
        loaded.withLock { loaded in
            if let known = loaded { return known }
            let index = PlaceIndex.load(folder: folder, logger: logger)
            loaded = .some(index)
            return index
        }
    }
}
