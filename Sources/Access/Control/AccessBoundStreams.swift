import Dispatch
import HTTP
import Synchronization

/// The open event streams that ride on a session or a share link, each closed when what opened
/// it ends: by the same `AccessChange` that drops the access cache (from this process or any
/// replica), or at its own expiry, which nothing notifies, by a sweep once a second. Where
/// another process's changes cannot be heard (SQLite and `photoscroll users`), the sweep also
/// asks the database, every `Recheck.seconds`, whether each stream's access is still there.
///
/// A request answers once; a stream goes on writing for as long as it is open, so without this
/// a stream opened before a sign-out, a revocation or a password change would go on telling
/// whoever held it about new comments and photos.
package final class AccessBoundStreams: Sendable {
    /// What a stream rides on.
    struct Access: Sendable, Hashable {
        /// The digest of the session it was opened with: a signed-in person's, or a link's password session.
        var session: String?
        /// The signed-in person (also for a signing-in proxy's request, which has no session).
        var user: Int?
        /// The share link it was opened through.
        var share: Int?
        /// Wall-clock unix seconds at which it ends by itself; nil for never.
        var endsAt: Int?

        /// Whether `change` ends it.
        func isEnded(by change: AccessChange) -> Bool {
            switch change {
            case .session(let digest): session == digest
            case .user(let id): user == id
            case .share(let id): share == id
            // A new account ends no one's access.
            case .added: false
            }
        }
    }

    /// How another process's changes are found without notifications.
    struct Recheck: Sendable {
        /// How often, in sweeps (one a second).
        let seconds: Int
        /// Whether an access is still in the database; throws when it cannot be asked.
        let isStored: @Sendable (Access) throws -> Bool
    }

    private struct Entry {
        let access: Access
        let stream: any ResponseStream
    }

    private struct State {
        var streams: [ObjectIdentifier: Entry] = [:]
        /// Counts the ends: a stream whose access was read before one starts closed (`add`).
        var epoch = 0
        var sweeps = 0
    }

    private let state = Mutex(State())
    /// Wall-clock unix seconds, the clock sessions and links expire by.
    private let wallNow: @Sendable () -> Int
    private let recheck: Recheck?
    private let sweeper = Mutex<DispatchSourceTimer?>(nil)
    /// Called by each end once it has taken the streams it ends, before it returns: the tests
    /// (`@testable`) hold one end there while another runs.
    let ending: (@Sendable () -> Void)?

    init(wallNow: @escaping @Sendable () -> Int, recheck: Recheck? = nil, ending: (@Sendable () -> Void)? = nil) {
        self.wallNow = wallNow
        self.recheck = recheck
        self.ending = ending
    }

    /// The moment a stream's access begins to be read: pass it to `add`.
    var epoch: Int { state.withLock { $0.epoch } }

    /// Streams open now.
    var count: Int { state.withLock { $0.streams.count } }

    /// Keeps `stream` until `access` ends. Anything ended since `epoch` may have been what the
    /// access was read from, so then the stream is closed at once: the client reconnects and
    /// is asked again. (Ends are rare; the window is the moment between reading and opening.)
    func add(_ stream: any ResponseStream, riding access: Access, since epoch: Int) {
        let key = ObjectIdentifier(stream)
        let kept = state.withLock { state -> Bool in
            guard state.epoch == epoch, access.endsAt.map({ wallNow() < $0 }) ?? true else { return false }
            state.streams[key] = Entry(access: access, stream: stream)
            return true
        }
        guard kept else {
            stream.close()
            return
        }
        stream.onClose { [weak self] in self?.state.withLock { _ = $0.streams.removeValue(forKey: key) } }
    }

    /// Closes every stream that `change` ended.
    func end(_ change: AccessChange) {
        // A new account ends no one's access, so it need not close a stream being opened either.
        if case .added = change { return }
        close(counted: true) { $0.isEnded(by: change) }
    }

    /// Closes every stream: what ended while changes could not be heard is not known.
    func endAll() {
        close(counted: true) { _ in true }
    }

    /// Closes the streams whose session or link has expired, and every `recheck.seconds` those
    /// whose access is no longer in the database.
    func sweep() {
        let now = wallNow()
        // Not counted: `add` checks the expiry itself.
        close(counted: false) { access in access.endsAt.map { $0 <= now } ?? false }
        guard let recheck else { return }
        let accesses = state.withLock { state -> Set<Access>? in
            state.sweeps += 1
            guard state.sweeps % max(1, recheck.seconds) == 0 else { return nil }
            return Set(state.streams.values.map(\.access))
        }
        // A database that cannot be asked ends nothing: it is asked again on the next round.
        let gone = (accesses ?? []).filter { (try? recheck.isStored($0)) == false }
        if !gone.isEmpty { close(counted: true) { gone.contains($0) } }
    }

    private func close(counted: Bool, where ended: (Access) -> Bool) {
        // Left in the table until they are closed: the same change is ended twice in a process (by
        // the request that made it, before it answers, and by its notification, on the listener's
        // thread), and an end that found them taken by the other could return, and the change
        // answer, while they still took writes. Each end closes all it finds; closing twice is nothing.
        let gone = state.withLock { state -> [ObjectIdentifier: Entry] in
            if counted { state.epoch += 1 }
            return state.streams.filter { ended($0.value.access) }
        }
        ending?()
        // After this no write reaches the client: a closed stream refuses them. Outside the lock:
        // a stream may run its `onClose` callbacks (which take it) as it closes.
        for entry in gone.values { entry.stream.close() }
        state.withLock { state in
            for key in gone.keys { state.streams[key] = nil }
        }
    }

    /// Starts the sweep for expiries, once a second.
    func start() {
        sweeper.withLock { sweeper in
            guard sweeper == nil else { return }
            // Made inside the lock: the timer is not Sendable, so it never exists outside it.
            let timer = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
            timer.schedule(deadline: .now() + 1, repeating: 1, leeway: .milliseconds(100))
            timer.setEventHandler { [weak self] in self?.sweep() }
            timer.resume()
            sweeper = timer
        }
    }

    /// Stops the sweep; streams still open stay so until their server closes them.
    func stop() {
        sweeper.withLock { sweeper in
            sweeper?.cancel()
            sweeper = nil
        }
    }
}
