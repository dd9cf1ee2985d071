import SQL

extension AccessStore {
    /// Makes a share link, with a fresh token.
    public func createShare(_ request: ShareRequest, by user: User) throws -> Share {
        let now = self.now()
        if let expiresAt = request.expiresAt, expiresAt <= now {
            throw AccessError(.invalid, "expires must be in the future.")
        }
        if request.upload {
            switch request.target {
            case .folder: break
            case .photo: throw AccessError(.invalid, "upload is for a folder's link only: a photo's link has nowhere to add photos.")
            case .album: throw AccessError(.invalid, "upload is for a folder's link only: uploads land in folders; share a folder to let its holder add photos.")
            }
        }
        var passwordHash: String?
        if let password = request.password {
            // The rule of accounts' passwords: a link's password guards the same photos.
            try Credentials.checkPassword(password)
            passwordHash = try PasswordHash.make(password, parameters: passwordParameters)
        }
        let token = try AccessToken.make()
        let (album, folder, photo): (Int?, Int?, Int?) = switch request.target {
        case .album(let id): (id, nil, nil)
        case .folder(let id): (nil, id, nil)
        case .photo(let id): (nil, nil, id)
        }
        let id = try database.transaction { tx in
            try tx.scalar("""
                INSERT INTO shares (token, album_id, folder_id, photo_id, created_by, created_at, expires_at, password_hash, download, comments, location, upload)
                VALUES (\(token), \(album), \(folder), \(photo), \(user.id), \(now), \(request.expiresAt), \(passwordHash),
                        \(request.download), \(request.comments), \(request.location), \(request.upload))
                RETURNING id
                """, as: Int.self) ?? 0
        }
        return Share(id: id, token: token, target: request.target, createdBy: user.id, createdAt: now, expiresAt: request.expiresAt,
                     passwordHash: passwordHash, download: request.download, comments: request.comments, location: request.location,
                     upload: request.upload)
    }

    /// Every share link, newest first, expired ones included (until revoked).
    public func shares() throws -> [Share] {
        try database.query("SELECT \(raw: Self.shareColumns) FROM shares ORDER BY id DESC").map(Self.share)
    }

    /// The link whose token this is, expired or not; nil for an unknown token.
    public func share(token: String) throws -> Share? {
        guard AccessToken.isWellFormed(token) else { return nil }
        return try database.query("SELECT \(raw: Self.shareColumns) FROM shares WHERE token = \(token)").first.map(Self.share)
    }

    /// The link with this id, or nil.
    public func share(id: Int) throws -> Share? {
        try database.query("SELECT \(raw: Self.shareColumns) FROM shares WHERE id = \(id)").first.map(Self.share)
    }

    /// Revokes a link at once, on every replica, with the sessions opened by its password.
    /// False when there is no such link.
    @discardableResult
    public func revokeShare(id: Int) throws -> Bool {
        try database.transaction { tx in
            guard try tx.run("DELETE FROM shares WHERE id = \(id)") > 0 else { return false }
            try tx.run("DELETE FROM sessions WHERE share_id = \(id)")
            try tx.notify(channel: AccessChange.channel, payload: AccessChange.share(id).payload)
            return true
        }
    }

    /// Whether `password` opens `share` (false for a link without a password).
    public func verifyPassword(_ password: String, of share: Share) -> Bool {
        guard let hash = share.passwordHash else { return false }
        return check(password, against: hash)
    }

    static let shareColumns = "id, token, album_id, photo_id, created_by, created_at, expires_at, password_hash, download, comments, location, upload, folder_id"

    static func share(_ row: SQLRow) throws -> Share {
        let target: Share.Target
        if let album = try row.decode(2, as: Int?.self) {
            target = .album(album)
        } else if let folder = try row.decode(12, as: Int?.self) {
            target = .folder(folder)
        } else {
            target = .photo(try row.decode(3))
        }
        return Share(id: try row.decode(0), token: try row.decode(1), target: target, createdBy: try row.decode(4),
                     createdAt: try row.decode(5), expiresAt: try row.decode(6), passwordHash: try row.decode(7),
                     download: try row.decode(8), comments: try row.decode(9), location: try row.decode(10), upload: try row.decode(11))
    }
}
