import Foundation

/// Threads for work that may block (disk, SQLite, libvips), so no event loop ever waits on it.
/// Results go back to the owning loop through `EventLoop.execute`.
final class WorkerPool: @unchecked Sendable {
    private let condition = NSCondition()
    private var queue: [@Sendable () -> Void] = []
    private var head = 0
    private var stopped = false
    private var threads: [Thread] = []
    private var running = 0

    init(threads count: Int, name: String = "http-worker") {
        for index in 0..<max(1, count) {
            let thread = Thread { [unowned self] in self.run() }
            thread.name = "\(name)-\(index)"
            thread.stackSize = 1 << 20
            threads.append(thread)
        }
        running = threads.count
        threads.forEach { $0.start() }
    }

    /// Queues `work` for the next free thread.
    func submit(_ work: @escaping @Sendable () -> Void) {
        condition.lock()
        queue.append(work)
        condition.signal()
        condition.unlock()
    }

    /// Lets queued work finish, then ends the threads; does not wait for a handler that is stuck.
    func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

    private func run() {
        while true {
            condition.lock()
            while head == queue.count && !stopped { condition.wait() }
            if head == queue.count {
                running -= 1
                condition.broadcast()
                condition.unlock()
                return
            }
            let work = queue[head]
            head += 1
            if head == queue.count {
                queue.removeAll(keepingCapacity: true)
                head = 0
            } else if head > 1024 {
                queue.removeFirst(head)
                head = 0
            }
            condition.unlock()
            work()
        }
    }
}
