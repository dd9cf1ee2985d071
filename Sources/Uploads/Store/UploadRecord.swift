import SQL

/// One upload as the database keeps it: what was announced at its creation, how far it has
/// come, and where its photo went.
public struct UploadRecord: Sendable, Equatable {
    public enum State: String, Sendable {
        /// Bytes still to come (or coming).
        case receiving
        /// Every byte arrived and the photo is in the library (or was there already).
        case complete
    }

    public var id: UploadID
    /// The announced size in bytes (`Upload-Length`).
    public var length: Int
    /// Bytes received as last written down; the file's size is the truth while receiving.
    public var received: Int
    /// The `Upload-Metadata` field as sent.
    public var metadata: String
    /// The client's file name, reduced to a safe last component (see `UploadFileName`).
    public var fileName: String
    /// The folder of the photos folder the photo goes to, relative; nil for `Uploads/YYYY/MM`.
    public var folder: String?
    /// Who made it (the client address).
    public var client: String
    /// The share link it was made through, if any (its album is `folder`).
    public var share: Int?
    /// Unix seconds.
    public var createdAt: Int
    public var expiresAt: Int
    public var state: State
    /// Once complete: the content hash of its bytes, where the photo is (relative), and whether it
    /// was already in the library.
    public var contentHash: String?
    public var photoPath: String?
    public var duplicate: Bool

    public init(id: UploadID, length: Int, received: Int = 0, metadata: String = "", fileName: String = "", folder: String? = nil,
                client: String, share: Int? = nil, createdAt: Int, expiresAt: Int, state: State = .receiving, contentHash: String? = nil,
                photoPath: String? = nil, duplicate: Bool = false) {
        self.id = id
        self.length = length
        self.received = received
        self.metadata = metadata
        self.fileName = fileName
        self.folder = folder
        self.client = client
        self.share = share
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.state = state
        self.contentHash = contentHash
        self.photoPath = photoPath
        self.duplicate = duplicate
    }
}

extension UploadRecord: SQLRowDecodable {
    /// The columns `UploadStore` selects, in order.
    static let columns = "id, length, received, metadata, file_name, album, client, created_at, expires_at, state, content_hash, photo_path, duplicate, share"

    public init(row: SQLRow) throws {
        guard let id = UploadID(try row.decode(0, as: String.self)) else { throw SQLError(.decoding, message: "an upload id is malformed") }
        self.id = id
        length = try row.decode(1)
        received = try row.decode(2)
        metadata = try row.decode(3)
        fileName = try row.decode(4)
        folder = try row.decode(5, as: String?.self)
        client = try row.decode(6)
        createdAt = try row.decode(7)
        expiresAt = try row.decode(8)
        state = State(rawValue: try row.decode(9, as: String.self)) ?? .receiving
        contentHash = try row.decode(10, as: String?.self)
        photoPath = try row.decode(11, as: String?.self)
        duplicate = try row.decode(12, as: Bool.self)
        share = try row.decode(13, as: Int?.self)
    }
}
