/// The order a list of photos is given in.
public enum PhotoOrder: String, Sendable, CaseIterable {
    /// By date taken, oldest first, ties by id: the library as a person remembers it.
    case taken
    /// By id: the order files were first found in.
    case id
}
