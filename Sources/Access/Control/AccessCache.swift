import Foundation
import Observability
import Synchronization

/// Sessions, share links and account names checked against the database lately, kept in memory
/// so that a request (a tile, a comment) is let in without a database round trip.
///
/// An entry is believed for `seconds` (and never past its own end); then the next request looks
/// it up again. Whatever ends a session or a link is dropped at once when its notification
/// arrives (`drop`), from this process or from any replica; while notifications cannot be
/// heard (the listener is reconnecting) nothing is believed at all, so a revocation is never
/// missed for longer than its notification takes. Lookups hash four words and allocate nothing.
package final class AccessCache: Sendable {
    struct SessionEntry: Sendable {
        let digest: String
        /// The signed-in user, or nil for a share link's password session.
        let user: SignedIn?
        let shareID: Int?
        /// Wall-clock unix seconds at which the session itself ends (its lifetime, or its idle
        /// limit counted from its last use as the database knew it).
        let endsAt: Int
        let validUntil: Double
    }

    struct ShareEntry: Sendable {
        let share: Share
        let validUntil: Double
    }

    /// A name a signing-in proxy gave, and its account (nil: none has that name).
    struct NameEntry: Sendable {
        let user: SignedIn?
        let validUntil: Double
    }

    /// Every account's name as names are compared (`Credentials.comparable(name:)`).
    struct AccountNamesEntry: Sendable {
        let names: Set<String>
        let validUntil: Double
    }

    private struct State {
        var sessions: [TokenKey: SessionEntry] = [:]
        var shares: [TokenKey: ShareEntry] = [:]
        var names: [String: NameEntry] = [:]
        var accountNames: AccountNamesEntry?
        /// Whether changes are being heard; until they are, nothing is kept.
        var hearing = false
        /// Counts what was dropped: a lookup that began before a drop keeps nothing, since it
        /// may have read what the drop ended.
        var epoch = 0
    }

    /// How long an entry is believed without asking the database again.
    let seconds: Double
    /// Entries of each kind kept at most; beyond, the expired ones go, then all.
    let capacity: Int
    /// `ClockSeconds.now` unless a test moves the time itself.
    let now: @Sendable () -> Double
    private let state = Mutex(State())
    /// Signalled whenever something is dropped, for whoever waits to see a change heard.
    private let dropped = NSCondition()

    init(seconds: Double, capacity: Int = 50_000, now: @escaping @Sendable () -> Double = ClockSeconds.now) {
        self.seconds = seconds
        self.capacity = capacity
        self.now = now
    }

    /// The session kept for `key`, if it is still believed.
    @inline(__always)
    func session(_ key: TokenKey) -> SessionEntry? {
        let now = self.now()
        return state.withLock { state in
            guard let entry = state.sessions[key], now < entry.validUntil else { return nil }
            return entry
        }
    }

    /// The share link kept for `key`, if it is still believed.
    @inline(__always)
    func share(_ key: TokenKey) -> Share? {
        let now = self.now()
        return state.withLock { state in
            guard let entry = state.shares[key], now < entry.validUntil else { return nil }
            return entry.share
        }
    }

    /// Waits until something is dropped after `epoch` (a change is heard), for at most
    /// `seconds`; whether it was.
    func waitForDrop(after epoch: Int, seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        dropped.lock()
        defer { dropped.unlock() }
        while self.epoch <= epoch {
            if !dropped.wait(until: deadline) { return self.epoch > epoch }
        }
        return true
    }

    /// The moment a lookup in the database begins: pass it to `keep`.
    var epoch: Int { state.withLock { $0.epoch } }

    /// The account a proxy's name stands for, if still believed: `.some(nil)` for a name no account has.
    func user(named name: String) -> SignedIn?? {
        let now = self.now()
        return state.withLock { state in
            guard let entry = state.names[name], now < entry.validUntil else { return nil }
            return .some(entry.user)
        }
    }

    /// The names that belong to accounts, if still believed.
    func accountNames() -> Set<String>? {
        let now = self.now()
        return state.withLock { state in
            guard let entry = state.accountNames, now < entry.validUntil else { return nil }
            return entry.names
        }
    }

    /// Keeps the names that belong to accounts, just read from the database.
    func keep(accountNames names: Set<String>, since epoch: Int) {
        let until = now() + seconds
        state.withLock { state in
            guard state.hearing, state.epoch == epoch else { return }
            state.accountNames = AccountNamesEntry(names: names, validUntil: until)
        }
    }

    /// Keeps the account a proxy's name stands for.
    func keep(name: String, user: SignedIn?, since epoch: Int) {
        let until = now() + seconds
        state.withLock { state in
            guard state.hearing, state.epoch == epoch else { return }
            if state.names.count >= capacity { state.names.removeAll() }
            state.names[name] = NameEntry(user: user, validUntil: until)
        }
    }

    /// Keeps a session just read from the database; `remaining` is how long it has to live.
    func keep(_ key: TokenKey, digest: String, user: SignedIn?, shareID: Int?, endsAt: Int, remaining: Double, since epoch: Int) {
        let moment = now()
        let until = moment + max(0, min(seconds, remaining))
        state.withLock { state in
            guard state.hearing, state.epoch == epoch else { return }
            makeRoom(in: &state.sessions, now: moment, validUntil: \.validUntil)
            state.sessions[key] = SessionEntry(digest: digest, user: user, shareID: shareID, endsAt: endsAt, validUntil: until)
        }
    }

    /// Keeps a share link just read from the database; `remaining` is how long until it expires.
    func keep(_ key: TokenKey, share: Share, remaining: Double, since epoch: Int) {
        let moment = now()
        let until = moment + max(0, min(seconds, remaining))
        state.withLock { state in
            guard state.hearing, state.epoch == epoch else { return }
            makeRoom(in: &state.shares, now: moment, validUntil: \.validUntil)
            state.shares[key] = ShareEntry(share: share, validUntil: until)
        }
    }

    /// Makes room in a full kind of entry (sessions or shares): the expired ones go, and if that
    /// leaves it half full or more, all of them, so the next clearing is far off.
    private func makeRoom<Entry>(in entries: inout [TokenKey: Entry], now: Double, validUntil: KeyPath<Entry, Double>) {
        guard entries.count >= capacity else { return }
        entries = entries.filter { $0.value[keyPath: validUntil] > now }
        if entries.count >= capacity / 2 { entries.removeAll() }
    }

    /// Forgets whatever a change ended.
    func drop(_ change: AccessChange) {
        defer {
            dropped.lock()
            dropped.broadcast()
            dropped.unlock()
        }
        state.withLock { state in
            state.epoch += 1
            switch change {
            case .session(let digest): state.sessions = state.sessions.filter { $0.value.digest != digest }
            case .user(let id):
                state.sessions = state.sessions.filter { $0.value.user?.id != id }
                state.names = state.names.filter { $0.value.user?.id != id && $0.value.user != nil }
                state.accountNames = nil
            case .added:
                // A proxy's name that had no account may have one now.
                state.names = state.names.filter { $0.value.user != nil }
                state.accountNames = nil
            case .share(let id):
                state.shares = state.shares.filter { $0.value.share.id != id }
                state.sessions = state.sessions.filter { $0.value.shareID != id }
            }
        }
    }

    /// Notifications are heard (again): entries may be kept. Anything kept before a gap is
    /// forgotten, since what ended meanwhile was not heard.
    func startHearing() {
        state.withLock { state in
            state = State(hearing: true, epoch: state.epoch + 1)
        }
    }

    /// Notifications cannot be heard: forget everything and keep nothing until they can.
    func stopHearing() {
        state.withLock { state in state = State(epoch: state.epoch + 1) }
    }

    /// Entries kept now.
    var count: (sessions: Int, shares: Int) { state.withLock { ($0.sessions.count, $0.shares.count) } }

}
