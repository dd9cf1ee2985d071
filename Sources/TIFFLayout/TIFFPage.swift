/// A page of the main chain and its SubIFDs (reduced resolutions, when a writer puts them there).
public struct TIFFPage: Sendable, Hashable {
    public let directory: TIFFDirectory
    public let subDirectories: [TIFFDirectory]
}
