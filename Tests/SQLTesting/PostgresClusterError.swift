import Foundation
import SQL
import Synchronization

/// The cluster could not be made or driven; the text says why, with the tool's own output.
public struct PostgresClusterError: Error, CustomStringConvertible, Sendable {
    public let description: String
    init(_ description: String) { self.description = description }
}
