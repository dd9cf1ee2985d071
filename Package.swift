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
        .systemLibrary(name: "CXXHash", pkgConfig: "libxxhash", providers: [.apt(["libxxhash-dev"])]),
        // Small C: POSIX calls Swift cannot make directly; libvips' varargs calls.
        .target(name: "CShims"),
        .target(name: "CVipsShims", dependencies: ["CVips"]),

        // Logging and metrics shared by every layer; depends on nothing of ours.
        .target(name: "Observability"),
        // A connection's state is only ever touched by its own loop's thread, through methods
        // that never overlap their accesses; the per-access dynamic exclusivity checks cost about
        // 6% of a request's instructions in release builds. Debug builds keep them.
        .target(name: "HTTP", dependencies: ["CShims", "CZlib", "Observability"],
                swiftSettings: [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))]),
        .target(name: "Imaging", dependencies: ["CVips", "CVipsShims", "Observability"]),
        .target(name: "Library", dependencies: ["Imaging", "CSQLite", "CXXHash", "CShims", "Observability"]),
        .target(name: "Comments", dependencies: ["CSQLite", "Observability"]),
        .target(name: "App", dependencies: ["HTTP", "Imaging", "Library", "Comments", "Observability"]),
        .executableTarget(name: "photoscroll", dependencies: ["App"]),

        .testTarget(name: "ObservabilityTests", dependencies: ["Observability"]),
        .testTarget(name: "HTTPTests", dependencies: ["HTTP"]),
        .testTarget(name: "ImagingTests", dependencies: ["Imaging"]),
        .testTarget(name: "LibraryTests", dependencies: ["Library", "CSQLite"]),
        .testTarget(name: "CommentsTests", dependencies: ["Comments"]),
        .testTarget(name: "AppTests", dependencies: ["App", "HTTP"]),
    ],
    swiftLanguageModes: [.v5]
)
