import Foundation
import Imaging
import Library
import Observability

/// `photoscroll check [--repair]`: what is wrong between the catalog, the files, the pyramids
/// and the rows that name photos; reads only (beside a running server) unless `--repair`.
public struct CheckCommand: Sendable, Equatable {
    public var configuration: ConfigurationOptions
    public var repair: Bool

    public init(configuration: ConfigurationOptions = ConfigurationOptions(), repair: Bool = false) {
        self.configuration = configuration
        self.repair = repair
    }

    /// The findings, one line each; the exit code is 1 when something is wrong and not repaired.
    static func run(configuration: Configuration, repair: Bool, logger: Logger, output: (String) -> Void) throws -> Int32 {
        try Vips.initialize(cacheMegabytes: configuration.vipsCacheMegabytes, concurrency: configuration.vipsConcurrency,
                            regionTileMegabytes: configuration.regionTileMegabytes)
        let databases = try DatabaseStartup.open(configuration, logger: logger)
        defer { databases.close() }
        let settings = LibraryConfiguration(configuration)
        // The stored catalog only: no scan, no background work, unless a repair needs one.
        let library = try PhotoLibrary(configuration: settings, database: databases.catalog, logger: logger, metrics: MetricsRegistry())
        let check = LibraryCheck(library: library, databases: databases, tileSize: settings.settings.tileSize)
        let findings = try check.run(repair: repair, progress: MaintenanceProgress.line)
        for finding in findings { output(finding.description) }
        let left = findings.filter { !$0.repaired }.count
        if findings.isEmpty {
            output("checked \(library.photos.count) photos: nothing wrong")
        } else if left == 0 {
            output("repaired \(findings.count) things; a server builds the removed pyramids again when it next starts or scans")
        } else {
            output("found \(left) things wrong; 'photoscroll check --repair' repairs them")
        }
        return left == 0 ? 0 : 1
    }
}

extension CheckCommand: Command {
    public static let name = "check"
    public static let usage = "photoscroll check [--repair] [--config FILE] [--photos DIR] [--data DIR] [--database URL]"
    public static let abstract = """
    Check the catalog against the photo files, every built pyramid's tiles (each one read), and the
    comments, share links and favourites that name a photo or album that is gone. Reads only, so it
    runs beside a server; exits 1 when something is wrong.
    """
    public static var options: [String] { ConfigurationOptions.names }
    public static var flags: [String] { ["repair"] }
    public static var optionHelp: [String: String] {
        ["repair": "        Remove bad pyramids (the server builds them again), mark photos whose file is gone as missing, drop orphan rows."]
    }

    public init(_ arguments: ArgumentList) throws(UsageError) {
        guard arguments.positional.isEmpty else { throw .missing("check takes no words, only --repair and the settings.") }
        self.init(configuration: try ConfigurationOptions(arguments), repair: arguments.flags.contains("repair"))
    }

    public func run(environment: [String: String]) throws -> Int32 {
        let configuration = try Self.configuration(self.configuration, environment: environment)
        let logger = Self.logger(configuration)
        return try Self.logging(logger) { try Self.run(configuration: configuration, repair: repair, logger: logger, output: { print($0) }) }
    }
}
