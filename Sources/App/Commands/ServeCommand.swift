import Foundation
import HTTP
import Imaging
import POSIX

/// `photoscroll [serve]`: serves the library, the API and the web page until SIGTERM or SIGINT.
public struct ServeCommand: Command, Equatable {
    public static let name = "serve"
    public static let usage = "photoscroll [serve] [--config FILE] [--host H] [--port N] [--photos DIR] [--data DIR]"
    public static let abstract = "Serve the photo library, the API and the web page (the default command)."
    public static var options: [String] { ConfigurationOptions.names }

    public var configuration: ConfigurationOptions

    public init(configuration: ConfigurationOptions = ConfigurationOptions()) {
        self.configuration = configuration
    }

    public init(_ arguments: ArgumentList) throws(UsageError) {
        guard arguments.positional.isEmpty else { throw .unexpectedArguments(command: Self.name, arguments.positional) }
        configuration = try ConfigurationOptions(arguments)
    }

    public func run(environment: [String: String]) throws -> Int32 {
        let configuration = try Self.configuration(self.configuration, environment: environment)
        let logger = Self.logger(configuration)
        // Before Application starts any thread, so every thread inherits the blocked mask.
        ShutdownSignals.block()
        // Threads that allocate in bursts (renders) leave freed memory in arenas of their own;
        // fewer arenas keep less of it (`RenderMemory` gives the rest back after a burst).
        Vips.limitHeapArenas(to: 2 * System.coreCount)
        Vips.keepLargeBlocksInTheHeap()
        return try Self.logging(logger) { try Application(configuration: configuration, logger: logger).run() }
    }
}
