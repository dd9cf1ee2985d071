import Foundation
import Imaging
import Library
import Observability
import POSIX

/// `photoscroll export (ID | PATH) --out DIR`: writes a static pyramid any web server can serve.
public struct ExportCommand: Sendable, Equatable {
    public var configuration: ConfigurationOptions
    /// A photo id, or a file path in or outside the library.
    public var photo: String
    public var outputDirectory: String

    public init(configuration: ConfigurationOptions = ConfigurationOptions(), photo: String, outputDirectory: String) {
        self.configuration = configuration
        self.photo = photo
        self.outputDirectory = outputDirectory
    }

    public static func run(configuration: Configuration, photo: String, outputDirectory: String, logger: Logger) throws -> Int32 {
        let databases = try DatabaseStartup.open(configuration, logger: logger)
        defer { databases.close() }
        let library = try OfflineLibrary.open(configuration, databases: databases, logger: logger)
        let chosen: Photo
        if let id = Int(photo), id > 0, !photo.hasPrefix("0") {
            guard let found = library.photo(id) else {
                throw ConfigurationError("There is no photo with id \(id). 'curl …/photos' lists them.")
            }
            chosen = found
        } else if library.folder.relativePath(of: photo) == nil {
            return try exportOutside(photo, configuration: configuration, library: library, outputDirectory: outputDirectory)
        } else {
            chosen = try IngestCommand.select([photo], in: library)[0]
        }
        if chosen.status == .failed {
            FileHandle.standardError.write(Data("failed: \(chosen.relativePath): \(chosen.error ?? "unknown error")\n".utf8))
            return 1
        }
        if chosen.status == .processing, let error = library.buildPyramid(chosen) {
            FileHandle.standardError.write(Data("failed: \(chosen.relativePath): \(error)\n".utf8))
            return 1
        }
        guard let pyramid = chosen.pyramid(tileSize: configuration.tileSize) else { return 1 }
        let export = PyramidExport(pyramid: pyramid, source: library.pyramidDirectory(chosen.version), name: chosen.title,
                                   storedTile: { tile in try library.image(of: chosen, tile: tile) })
        let tiles = try export.write(to: outputDirectory)
        print("exported \(chosen.relativePath): \(pyramid.width)×\(pyramid.height), levels 0–\(pyramid.maxZoom), \(tiles) tiles → \(outputDirectory) (info.json, \(chosen.title).dzi)")
        return 0
    }
}

extension ExportCommand {
    /// A file outside the photos folder: built into a scratch folder beside the output, exported, removed.
    static func exportOutside(_ path: String, configuration: Configuration, library: any LibraryAdministering,
                              outputDirectory: String) throws -> Int32 {
        guard FileManager.default.fileExists(atPath: path) else {
            throw ConfigurationError("\(path) does not exist, and is not a photo id.")
        }
        let scratch = outputDirectory + "/.pyramid-\(System.processID)"
        try FileManager.default.createDirectory(atPath: outputDirectory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let renderer = VipsPhotoRendering(settings: library.configuration.settings)
        let pyramid: TilePyramid
        do {
            pyramid = try renderer.buildPyramid(source: .file(path), into: scratch)
        } catch {
            FileHandle.standardError.write(Data("failed: \(path): \(error)\n".utf8))
            return 1
        }
        let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        let tiles = try PyramidExport(pyramid: pyramid, source: scratch, name: name, storedTile: { tile in
            guard let bytes = try renderer.storedTile(source: .file(path), tile: tile) else { throw ImagingError.noSuchTile(tile) }
            return bytes
        }).write(to: outputDirectory)
        print("exported \(path): \(pyramid.width)×\(pyramid.height), levels 0–\(pyramid.maxZoom), \(tiles) tiles → \(outputDirectory)")
        return 0
    }
}

extension ExportCommand: Command {
    public static let name = "export"
    public static let usage = "photoscroll export (ID | PATH) --out DIR [--config FILE] [--photos DIR] [--data DIR]"
    public static let abstract = "Write one photo's pyramid (a photo id, or a file in or outside the library) as static files any web server can serve."
    public static var options: [String] { ["out"] + ConfigurationOptions.names }
    public static var optionHelp: [String: String] { ["out": "DIR       The folder to write info.json, the .dzi and the tiles into."] }

    public init(_ arguments: ArgumentList) throws(UsageError) {
        guard arguments.positional.count == 1, let out = arguments.options["out"] else {
            throw .missing("export takes one photo (an id or a file path) and --out DIR.")
        }
        self.init(configuration: try ConfigurationOptions(arguments), photo: arguments.positional[0], outputDirectory: out)
    }

    public func run(environment: [String: String]) throws -> Int32 {
        let configuration = try Self.configuration(self.configuration, environment: environment)
        let logger = Self.logger(configuration)
        return try Self.logging(logger) {
            try Self.run(configuration: configuration, photo: photo, outputDirectory: outputDirectory, logger: logger)
        }
    }
}
