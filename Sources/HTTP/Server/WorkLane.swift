import Foundation
import Observability
import Synchronization

/// A kind of blocking work with threads of its own (catalog queries, comment writes, image
/// renders), so that a flood of one kind cannot starve the others.
public struct WorkLane: Hashable, Sendable, CustomStringConvertible {
    public let name: String
    public init(_ name: String) { self.name = name }
    /// Routes that name no lane (static files and the like).
    public static let general = WorkLane("general")
    public var description: String { name }
}
