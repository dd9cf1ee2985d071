/// Names one image held in memory, without its bytes: what a hot lookup hands out. A stamp is
/// never given to other bytes. `slot` is a small number that no other image held at the same
/// time has, given again once the image goes: a caller keeps what it derives from an image in a
/// flat table by `slot`, checks the stamp on every read, and is told when an image goes
/// (`PhotoLibrary.observeDroppedImages`).
public struct ImageStamp: Hashable, Sendable {
    /// The slot index in the high half, a per-store generation in the low half; never 0.
    let raw: UInt64

    public var slot: Int { Int(truncatingIfNeeded: raw >> 32) }
}
