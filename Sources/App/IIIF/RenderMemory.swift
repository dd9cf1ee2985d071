import Dispatch
import Imaging
import Synchronization

/// Gives memory back once renditions stop coming. A burst of renditions leaves the C heap's
/// arenas and libvips' operation cache holding their peak; a second after the last one ends,
/// with none started since, libvips' cache is emptied and every arena's free pages go back to
/// the kernel, so resident memory falls back to where it was.
final class RenderMemory: Sendable {
    private struct State {
        var running = 0
        /// Counts starts: a release scheduled before a later start is stale.
        var generation = 0
    }

    private let state = Mutex(State())
    private let delaySeconds: Double
    private let release: @Sendable () -> Void

    init(delaySeconds: Double = 1, release: @escaping @Sendable () -> Void = RenderMemory.releaseAll) {
        self.delaySeconds = delaySeconds
        self.release = release
    }

    /// Runs one rendition, counted.
    func run<T>(_ body: () throws -> T) rethrows -> T {
        state.withLock {
            $0.running += 1
            $0.generation += 1
        }
        defer { ended() }
        return try body()
    }

    private func ended() {
        let (idle, generation) = state.withLock { state -> (Bool, Int) in
            state.running -= 1
            return (state.running == 0, state.generation)
        }
        guard idle else { return }
        DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + delaySeconds) { [self] in
            guard state.withLock({ $0.running == 0 && $0.generation == generation }) else { return }
            release()
        }
    }

    /// libvips' cache, then the C heap's free pages.
    static func releaseAll() { Vips.releaseMemory() }
}
