import SQL

/// The collections' changes told to every process on the database: each change is announced on
/// a notification channel in the transaction that makes it (so only what was committed is
/// told), and every process hears its own and the others' on that channel alike. On SQLite the
/// channel is this process's own; on PostgreSQL every replica's.
extension CollectionStore {
    /// The notification channel of collection changes.
    static let changeChannel = "photoscroll_collections"

    /// Calls `handler` after each change to albums, favourites or the trash, made by this
    /// process or (on PostgreSQL) another, once hearing has started (`startHearing()`).
    func observeCollectionChanges(_ handler: @escaping @Sendable (CollectionChange) -> Void) {
        collectionObservers.withLock { $0.append(handler) }
    }

    /// Starts hearing the changes announced on the database. After the listener reconnects,
    /// what was announced meanwhile is not known: observers are told anything may have changed.
    func startHearing() throws {
        let made = try database.listen([Self.changeChannel]) { [weak self] event in
            guard let self else { return }
            switch event {
            case .connected(let reconnect): if reconnect { heard(.unknown) }
            case .notification(let note): heard(CollectionChange(payload: note.payload) ?? .unknown)
            case .disconnected: break
            }
        }
        listener.withLock { $0 = made }
    }

    /// Stops hearing; observers are told nothing more.
    func stopHearing() {
        let made = listener.withLock { listener -> SQLListener? in
            defer { listener = nil }
            return listener
        }
        made?.stop()
    }

    private func heard(_ change: CollectionChange) {
        // Another replica's album changes reach share links' checks at once, not after `membersSeconds`.
        if change.touchesAlbums { memberCache.withLock { $0.removeAll() } }
        for handler in collectionObservers.withLock({ $0 }) { handler(change) }
    }

    /// Announces `change` when `tx` commits.
    static func announce(_ change: CollectionChange, _ tx: SQLConnection) throws {
        guard !change.isEmpty else { return }
        try tx.notify(channel: changeChannel, payload: change.payload)
    }

    /// Every album's id.
    static func albumIDs(_ tx: SQLConnection) throws -> Set<Int> {
        Set(try tx.query("SELECT id FROM collection_albums").map { try $0.decode(0, as: Int.self) })
    }
}
