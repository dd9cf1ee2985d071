import Dispatch
import Synchronization

/// Delivers notifications committed in this process to its SQLite listeners.
final class NotificationHub: Sendable {
    private struct Subscriber: Sendable {
        let channels: Set<String>
        let queue: DispatchQueue
        let stopped: Stopped
        let handler: @Sendable (SQLListenerEvent) -> Void
    }

    final class Stopped: Sendable {
        let flag = Atomic(false)
    }

    private let subscribers = Mutex<[Int: Subscriber]>([:])
    private let nextID = Atomic(0)

    /// Subscribes `handler` to `channels`; it is told `.connected` first.
    func listen(_ channels: [String], handler: @escaping @Sendable (SQLListenerEvent) -> Void) -> SQLListener {
        let id = nextID.add(1, ordering: .relaxed).newValue
        let subscriber = Subscriber(channels: Set(channels), queue: DispatchQueue(label: "sql.listener.\(id)"),
                                    stopped: Stopped(), handler: handler)
        subscriber.queue.setSpecific(key: Self.queueKey, value: id)
        subscribers.withLock { $0[id] = subscriber }
        subscriber.queue.async {
            if !subscriber.stopped.flag.load(ordering: .acquiring) { handler(.connected(reconnect: false)) }
        }
        return SQLListener { [weak self] in
            self?.subscribers.withLock { $0[id] = nil }
            subscriber.stopped.flag.store(true, ordering: .releasing)
            // Wait for an event being delivered, unless this is that event's handler stopping itself.
            if DispatchQueue.getSpecific(key: Self.queueKey) != id { subscriber.queue.sync {} }
        }
    }

    func publish(_ notifications: [SQLNotification]) {
        let targets = subscribers.withLock { Array($0) }
        for (_, subscriber) in targets {
            let mine = notifications.filter { subscriber.channels.contains($0.channel) }
            guard !mine.isEmpty else { continue }
            subscriber.queue.async {
                for notification in mine where !subscriber.stopped.flag.load(ordering: .acquiring) {
                    subscriber.handler(.notification(notification))
                }
            }
        }
    }

    static let queueKey = DispatchSpecificKey<Int>()
}
