/// Why a probe got no answer, in words for a health check's log.
struct HealthProbeError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
