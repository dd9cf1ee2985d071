import Observability

/// `photoscroll ingest [PATH…]`: builds pyramids ahead of time.
public enum IngestCommand {
    /// Returns the process exit code.
    public static func run(configuration: Configuration, paths: [String], logger: Logger) throws -> Int32 {
        throw ConfigurationError("ingest is not built yet")
    }
}

/// `photoscroll export (ID | PATH) --out DIR`: writes a static pyramid any web server can serve.
public enum ExportCommand {
    public static func run(configuration: Configuration, photo: String, outputDirectory: String, logger: Logger) throws -> Int32 {
        throw ConfigurationError("export is not built yet")
    }
}
