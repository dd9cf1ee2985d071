import Search
import Synchronization

/// The index's last answers, kept while the index has not changed: the page asks the same query
/// again for each page of its results (`next`), and again every few seconds while the index is
/// partial, and on PostgreSQL each answer is the shared server's work, scoring every match.
///
/// Answers are kept under the index's generation (`search_generation`, moved by every write in
/// the write's own transaction, whichever replica wrote), so an answer is given again only while
/// no photo's words have changed since it was read. A generation newer than the kept one drops
/// every answer; an answer read under an older one is not kept. Holds at most `capacity`
/// queries, the least recently asked dropped first.
final class SearchScoreCache: Sendable {
    private struct Kept {
        var generation: Int64 = .min
        var answers: [SearchQuery: [SearchScore]] = [:]
        /// The queries kept, the most recently asked last.
        var order: [SearchQuery] = []
    }

    let capacity: Int
    private let kept = Mutex(Kept())

    init(capacity: Int) {
        precondition(capacity > 0)
        self.capacity = capacity
    }

    /// The answer kept for `query` if it was read under `generation`.
    func scores(for query: SearchQuery, at generation: Int64) -> [SearchScore]? {
        kept.withLock { kept in
            guard kept.generation == generation, let answer = kept.answers[query] else { return nil }
            if let at = kept.order.firstIndex(of: query) { kept.order.remove(at: at) }
            kept.order.append(query)
            return answer
        }
    }

    /// Keeps `answer` to `query`, read under `generation`.
    func keep(_ answer: [SearchScore], for query: SearchQuery, at generation: Int64) {
        kept.withLock { kept in
            guard generation >= kept.generation else { return }
            if generation > kept.generation { kept = Kept(generation: generation) }
            if kept.answers.updateValue(answer, forKey: query) == nil {
                kept.order.append(query)
                if kept.order.count > capacity { kept.answers[kept.order.removeFirst()] = nil }
            }
        }
    }
}
