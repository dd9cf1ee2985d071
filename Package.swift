// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "PhotoScroll",
    products: [
        .executable(name: "photoscroll", targets: ["photoscroll"]),
    ],
    targets: [
        // C libraries from Debian packages.
        .systemLibrary(name: "CVips", pkgConfig: "vips", providers: [.apt(["libvips-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        .systemLibrary(name: "CXXHash", pkgConfig: "libxxhash", providers: [.apt(["libxxhash-dev"])]),
        // Access's crypto: Argon2id password hashes, keyed BLAKE2b token digests, constant-time
        // comparison, base64url (Access/Crypto/Sodium.swift).
        .systemLibrary(name: "CSodium", pkgConfig: "libsodium", providers: [.apt(["libsodium-dev"])]),
        // Upload checksums alone (Uploads/Protocol/UploadCrypto.swift): tus clients send SHA-1,
        // which libsodium lacks, and one library serves all three of sha1, sha256, sha512.
        .systemLibrary(name: "CNettle", pkgConfig: "nettle", providers: [.apt(["nettle-dev"])]),
        // Only to read token digests an older version wrote (Access/Crypto/LegacyTokenDigest.swift):
        // Argon2id under a 24-byte salt, which libsodium cannot compute. Goes once none can be left.
        .systemLibrary(name: "CArgon2", pkgConfig: "libargon2", providers: [.apt(["libargon2-dev"])]),
        // Small C: POSIX calls Swift cannot make directly; libvips' varargs calls.
        .target(name: "CShims"),
        .target(name: "CVipsShims", dependencies: ["CVips"]),
        // JPEG pyramid tiles straight through libjpeg-turbo: a region cut from a pyramid's tiles
        // (decode, shrink, encode on two threads), the decoded tiles kept between regions (an
        // object the caller owns), the pyramid's build from rows in order, bands cut at restart
        // markers. libvips only for images in memory, its error buffer and a render's stop.
        .target(name: "CJPEGTiles", dependencies: ["CVips", "CVipsShims"], linkerSettings: [.linkedLibrary("jpeg")]),
        // Every system call of ours goes through it, and it alone imports Glibc: EINTR retried,
        // EAGAIN as would-block, one typed error with errno and the call's name; files opened
        // beneath a folder, sockets, epoll, clocks, signals. Depends on nothing of ours but the
        // C shims (openat2, accept4, epoll, eventfd, getrandom).
        .target(name: "POSIX", dependencies: ["CShims"], swiftSettings: [.swiftLanguageMode(.v6)]),

        // Logging and metrics shared by every layer; depends on nothing of ours but POSIX. Without dynamic
        // exclusivity checks in release builds, as HTTP below: an event loop's log buffer is
        // touched by its own thread only. What the flag buys, for both modules: see HTTP.
        .target(name: "Observability", dependencies: ["POSIX"],
                swiftSettings: [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))]),
        // A connection's state is only ever touched by its own loop's thread, through methods
        // that never overlap their accesses. Measured with `bench/lib/instructions.sh tile` on a
        // release build with and without the flag on this module and Observability: a hot tile
        // takes 14,458 user-space instructions unchecked against 17,627 checked (+22 %), and
        // 13,298 against 16,010 with the request log off (+20 %). Debug builds keep the checks.
        .target(name: "HTTP", dependencies: ["POSIX", "CZlib", "Observability"],
                swiftSettings: [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))]),
        // Functions of ours added to every SQLite connection: `phrase_score`, FTS5's score of a
        // row by where its phrases matched (search ranks from the index alone).
        .target(name: "CSQLiteFunctions", dependencies: ["CSQLite"]),
        // One SQL layer over SQLite and PostgreSQL.
        .target(name: "SQL", dependencies: ["CSQLite", "CSQLiteFunctions", "CLibPQ", "POSIX", "Observability"]),
        // A tiled TIFF's directories read as a pyramid of levels and tile locations: a pure
        // reader over bytes, on nothing of ours, so that its fuzzer builds without libvips.
        .target(name: "TIFFLayout"),
        .target(name: "Imaging", dependencies: ["CVips", "CVipsShims", "CJPEGTiles", "POSIX", "Observability", "TIFFLayout"]),
        // The walk of the photos folder (the scan's and the watcher's) and what it lists, over
        // POSIX alone, so that its fuzzer builds without libvips and SQL.
        .target(name: "FolderScan", dependencies: ["POSIX"]),
        // Search as values: the query's words and the index's (one folding for both engines), the
        // words of dates, and GPS to the nearest city from GeoNames' tables loaded in memory.
        .target(name: "Search", dependencies: ["Observability"]),
        // The search index in the catalog's database: FTS5 on SQLite, a tsvector on PostgreSQL.
        .target(name: "SearchIndex", dependencies: ["Search", "SQL"]),
        .target(name: "Library", dependencies: ["FolderScan", "Imaging", "SQL", "CXXHash", "POSIX", "Observability"]),
        .target(name: "Comments", dependencies: ["SQL", "Observability"]),
        // Resumable uploads as values: tus headers, upload checksums (nettle), multipart forms, the
        // upload table and the files waiting in the data folder; knows nothing of HTTP or photos.
        .target(name: "Uploads", dependencies: ["CNettle", "SQL", "POSIX", "Observability"]),
        // Accounts, sessions and share links over SQL, and every piece of crypto access uses
        // (Crypto/: libsodium, random tokens from the kernel).
        .target(name: "Access", dependencies: ["CSodium", "CArgon2", "HTTP", "SQL", "POSIX", "Observability"]),
        // The IIIF Image and Presentation APIs as values and documents; knows nothing of HTTP or libvips.
        .target(name: "IIIF", dependencies: ["Observability"]),
        // A JPEG's location (Exif GPS, XMP places, IPTC location) taken out of its metadata
        // segments without touching its image data: a pure function over bytes, on nothing of
        // ours, so that its fuzzer builds without libvips or SQL.
        .target(name: "JPEGMetadata"),
        .target(name: "App", dependencies: ["HTTP", "Imaging", "Library", "Comments", "SQL", "Search", "SearchIndex", "IIIF", "JPEGMetadata", "Uploads", "Access", "POSIX", "Observability"]),
        .executableTarget(name: "photoscroll", dependencies: ["App", "POSIX"]),
        // What the fuzzers share: libFuzzer's entry and driver, and the replay of saved inputs.
        .target(name: "FuzzSupport", dependencies: ["POSIX"]),
        // libFuzzer target for the request parser and the chunked decoder (`make fuzz`); in an
        // ordinary build it replays inputs through the same checks.
        .executableTarget(name: "HTTPFuzz", dependencies: ["HTTP", "FuzzSupport"]),
        // libFuzzer target for the IIIF image request grammar and its limits (`make fuzz`).
        .executableTarget(name: "IIIFFuzz", dependencies: ["IIIF", "FuzzSupport"]),
        // libFuzzer target for the photo-folder walk: hostile trees (links out and in loops,
        // FIFOs, devices, deep and long names) built from each input and walked (`make fuzz`).
        .executableTarget(name: "FolderWalkFuzz", dependencies: ["FolderScan", "POSIX", "FuzzSupport"]),
        // libFuzzer target for taking a JPEG's location out: hostile segments, TIFF directories,
        // XMP and Photoshop blocks (`make fuzz`).
        .executableTarget(name: "JPEGLocationFuzz", dependencies: ["JPEGMetadata", "FuzzSupport"]),
        // libFuzzer target for reading a TIFF's directories as a pyramid: looping directories,
        // offsets past the end, levels that lie about their size (`make fuzz`).
        .executableTarget(name: "TIFFLayoutFuzz", dependencies: ["TIFFLayout", "FuzzSupport"]),
        // libFuzzer target for the search query parser: over-long, control-laden, non-UTF-8 and
        // syntax-laden queries (`make fuzz`).
        .executableTarget(name: "SearchQueryFuzz", dependencies: ["Search", "FuzzSupport"]),

        // A real PostgreSQL cluster for tests (initdb, pg_ctl), shared by every test target.
        .target(name: "SQLTesting", dependencies: ["SQL"], path: "Tests/SQLTesting"),
        // What tests share beyond SQL: scratch files written without an fsync.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "SQLTests", dependencies: ["SQL", "SQLTesting"]),
        .testTarget(name: "POSIXTests", dependencies: ["POSIX"], swiftSettings: [.swiftLanguageMode(.v6)]),
        .testTarget(name: "ObservabilityTests", dependencies: ["Observability"]),
        .testTarget(name: "HTTPTests", dependencies: ["HTTP", "TestSupport"]),
        .testTarget(name: "ImagingTests", dependencies: ["Imaging", "TestSupport"]),
        .testTarget(name: "LibraryTests", dependencies: ["Library", "SQL", "SQLTesting", "TestSupport"]),
        .testTarget(name: "CommentsTests", dependencies: ["Comments", "SQL", "SQLTesting", "TestSupport"]),
        .testTarget(name: "AccessTests", dependencies: ["Access", "SQL", "SQLTesting"]),
        .testTarget(name: "IIIFTests", dependencies: ["IIIF"]),
        .testTarget(name: "SearchTests", dependencies: ["Search", "Observability"]),
        .testTarget(name: "SearchIndexTests", dependencies: ["SearchIndex", "Search", "SQL", "SQLTesting"]),
        .testTarget(name: "JPEGMetadataTests", dependencies: ["JPEGMetadata"]),
        .testTarget(name: "TIFFLayoutTests", dependencies: ["TIFFLayout"]),
        .testTarget(name: "UploadsTests", dependencies: ["Uploads", "SQL", "SQLTesting"]),
        .testTarget(name: "AppTests", dependencies: ["App", "HTTP", "Library", "SQL", "Uploads", "Access", "SQLTesting", "TestSupport"]),
    ],
    // Swift 6 mode everywhere, tests included: data-race safety is checked, not assumed.
    swiftLanguageModes: [.v6]
)
