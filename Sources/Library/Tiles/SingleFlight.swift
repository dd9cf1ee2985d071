import Foundation
import Synchronization

/// Runs one piece of work per key at a time: callers that ask for a key already being worked on
/// wait for that result instead of doing the work again (N requests for one missing tile → one render).
final class SingleFlight<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    // @unchecked Sendable: `result` is guarded by `condition`, which the waiting callers wait on.
    private final class Call: @unchecked Sendable {
        // Guarded by `condition`.
        let condition = NSCondition()
        var result: Result<Value, Error>?
    }

    private let calls = Mutex<[Key: Call]>([:])

    init() {}

    /// The value for `key`: computed by `work` here, or by the caller already computing it.
    func run(_ key: Key, _ work: () throws -> Value) throws -> Value {
        let (call, isLeader) = calls.withLock { calls -> (Call, Bool) in
            if let existing = calls[key] { return (existing, false) }
            let call = Call()
            calls[key] = call
            return (call, true)
        }
        if isLeader {
            let result = Result { try work() }
            calls.withLock { $0[key] = nil }
            call.condition.lock()
            call.result = result
            call.condition.broadcast()
            call.condition.unlock()
            return try result.get()
        }
        call.condition.lock()
        while call.result == nil { call.condition.wait() }
        let result = call.result!
        call.condition.unlock()
        return try result.get()
    }

    /// Whether `key` is being worked on right now.
    func isRunning(_ key: Key) -> Bool { calls.withLock { $0[key] != nil } }

    /// Keys being worked on right now.
    var inFlight: Int { calls.withLock { $0.count } }
}
