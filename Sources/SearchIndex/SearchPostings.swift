/// How PostgreSQL's postings hold the photos of one word: `search_postings(term, chunk, ids)`,
/// a row per field-tagged word (`SQLSearchIndex.tag`) and chunk of 4,096 photo ids (`id >> 12`),
/// its `ids` the photos of that chunk holding the word, as the offsets in the chunk (`id & 4095`).
///
/// A chunk with fewer than 256 of them holds their offsets, sorted, two bytes each, big-endian
/// (as PostgreSQL's `int2send` writes them, so the schema step can build rows in SQL); one with
/// 256 or more holds a bitmap of 512 bytes, offset `k` the bit `0x80 >> (k % 8)` of byte `k / 8`
/// (as `varbit_send` writes a `bit(4096)`). A row is told by its length: 512 bytes is a bitmap,
/// a list is at most 510. So no row is over 512 bytes: PostgreSQL keeps every one in the table's
/// page, never compressed or moved to TOAST, and a word found in every photo of a library of
/// 100,000 is 25 rows of 512 bytes.
///
/// Chunks of 4,096: a first fill writes photos 64 at a time in id order, so a batch rewrites the
/// rows of one or two chunks per word, each at most 512 bytes; with smaller chunks a common word
/// would be more rows to read per query, with larger ones a batch would rewrite bigger rows.
enum SearchPostings {
    /// Photo ids per chunk: `1 << chunkBits`.
    static let chunkBits = 12
    static let chunkSize = 1 << chunkBits
    /// A bitmap's length, in bytes.
    static let bitmapLength = chunkSize / 8
    /// The fewest photos in a chunk held as a bitmap rather than a list.
    static let bitmapFrom = bitmapLength / 2

    /// The chunk holding `photoID`, and its offset there.
    static func place(_ photoID: Int) -> (chunk: Int, offset: Int) {
        (photoID >> chunkBits, photoID & (chunkSize - 1))
    }

    /// `offsets` (sorted, distinct, each below `chunkSize`) as a row's `ids`.
    static func encode(_ offsets: [Int]) -> [UInt8] {
        if offsets.count >= bitmapFrom {
            var bitmap = [UInt8](repeating: 0, count: bitmapLength)
            for offset in offsets { bitmap[offset >> 3] |= 0x80 >> UInt8(offset & 7) }
            return bitmap
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(2 * offsets.count)
        for offset in offsets { bytes.append(UInt8(offset >> 8)); bytes.append(UInt8(offset & 0xff)) }
        return bytes
    }

    /// A row's `ids` as offsets, in order.
    static func decode(_ bytes: [UInt8]) -> [Int] {
        var offsets: [Int] = []
        forEachOffset(bytes) { offsets.append($0) }
        return offsets
    }

    /// Calls `body` with each offset a row's `ids` holds, in order.
    static func forEachOffset(_ bytes: [UInt8], _ body: (Int) -> Void) {
        if bytes.count == bitmapLength {
            for (index, byte) in bytes.enumerated() where byte != 0 {
                for bit in 0..<8 where byte & (0x80 >> UInt8(bit)) != 0 { body(index << 3 | bit) }
            }
            return
        }
        var i = 0
        while i + 1 < bytes.count {
            body(Int(bytes[i]) << 8 | Int(bytes[i + 1]))
            i += 2
        }
    }

    /// The statement that fills `search_postings` from every row of `search_photos`, lists and
    /// bitmaps as `encode` makes them: the schema step that brings them, and `SQLSearchIndex`
    /// when a replica of an earlier build wrote words without them. On an empty table.
    static let buildFromWords = """
        INSERT INTO search_postings (term, chunk, ids)
        SELECT term, chunk,
               CASE WHEN count(*) >= \(bitmapFrom)
                    THEN substring(varbit_send(bit_or(B'1'::bit(\(chunkSize)) >> spot)::varbit) FROM 5)
                    ELSE string_agg(int2send(spot::int2), ''::bytea ORDER BY spot) END
        FROM (SELECT unnest(tsvector_to_array(words)) AS term, (photo_id >> \(chunkBits))::int AS chunk,
                     (photo_id & \(chunkSize - 1))::int AS spot
              FROM search_photos) AS words
        GROUP BY term, chunk
        """
}
