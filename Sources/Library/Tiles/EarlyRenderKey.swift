import Imaging

/// One render on demand of a photo version: requests for any of it wait for the one in flight.
struct EarlyRenderKey: Hashable, Sendable {
    var version: String
    var unit: RenderUnit
}
